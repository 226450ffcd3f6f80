/// Credential hosts indexed label by label from the right (`com` → `example` → `corp`), so that a request host
/// finds its exact entry or its longest leading-dot suffix in one pass over its labels, whatever the number of
/// payloads.
///
/// A lookup reads the host's bytes in place: each label is found by a 64-bit FNV-1a hash of its bytes (no string is
/// made, nothing is hashed twice) and then compared byte for byte with the label stored at the node, so hash
/// collisions cannot match the wrong host.
struct CredentialHostIndex: Sendable {
    /// An edge from a node to the child for the next label to the left, by that label's hash.
    private struct Edge: Hashable {
        let node: Int
        let labelHash: UInt64
    }

    /// What ends at a node: its label, the payload whose host equals the path, and the one whose `.suffix` it is.
    private struct Node {
        var label: [UInt8] = []
        var exact: ProfileCatalog.HostRule?
        var suffix: ProfileCatalog.HostRule?
    }

    private var edges: [Edge: [Int]] = [:]
    private var nodes: [Node] = [Node()]

    var isEmpty: Bool { nodes.count == 1 }

    init(_ rules: [ProfileCatalog.HostRule]) {
        for rule in rules {
            let name = rule.host.isSuffix ? String(rule.host.name.dropFirst()) : rule.host.name
            var node = 0
            for label in name.split(separator: ".", omittingEmptySubsequences: false).reversed() {
                let bytes = Array(label.utf8)
                let edge = Edge(node: node, labelHash: bytes.withUnsafeBufferPointer(Self.hash))
                if let next = edges[edge]?.first(where: { nodes[$0].label == bytes }) {
                    node = next
                } else {
                    nodes.append(Node(label: bytes))
                    edges[edge, default: []].append(nodes.count - 1)
                    node = nodes.count - 1
                }
            }
            if rule.host.isSuffix { nodes[node].suffix = rule } else { nodes[node].exact = rule }
        }
    }

    /// The rule for a normalized host: its exact entry, else the deepest suffix that leaves at least one label of
    /// the host to its left (`.example.com` matches `a.example.com`, never `example.com`).
    func lookup(_ host: String) -> ProfileCatalog.HostRule? {
        var host = host
        return host.withUTF8 { bytes in
            var node = 0
            var best: ProfileCatalog.HostRule?
            var end = bytes.count
            while true {
                var start = end
                while start > 0, bytes[start - 1] != UInt8(ascii: ".") { start -= 1 }
                let label = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard let candidates = edges[Edge(node: node, labelHash: Self.hash(label))],
                    let next = candidates.first(where: { nodes[$0].label.elementsEqual(label) })
                else { return best }
                node = next
                if start == 0 { return nodes[node].exact ?? best }
                if let suffix = nodes[node].suffix { best = suffix }
                end = start - 1
            }
        }
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return value
    }
}
