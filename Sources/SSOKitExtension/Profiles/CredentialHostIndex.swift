/// Credential hosts indexed label by label from the right (`com` → `example` → `corp`), so that a request host
/// finds its exact entry or its longest leading-dot suffix in one pass over its labels, whatever the number of
/// payloads.
struct CredentialHostIndex: Sendable {
    /// An entry of one node's children: the node and the next label to the left.
    private struct Edge: Hashable {
        let node: Int
        let label: String
    }

    /// What ends at a node: the payload whose host equals the path, and the one whose `.suffix` it is.
    private struct Node {
        var exact: ProfileCatalog.HostRule?
        var suffix: ProfileCatalog.HostRule?
    }

    private var edges: [Edge: Int] = [:]
    private var nodes: [Node] = [Node()]

    var isEmpty: Bool { nodes.count == 1 }

    init(_ rules: [ProfileCatalog.HostRule]) {
        for rule in rules {
            let name = rule.host.isSuffix ? String(rule.host.name.dropFirst()) : rule.host.name
            var node = 0
            for label in name.split(separator: ".", omittingEmptySubsequences: false).reversed() {
                let edge = Edge(node: node, label: String(label))
                if let next = edges[edge] {
                    node = next
                } else {
                    nodes.append(Node())
                    edges[edge] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            if rule.host.isSuffix { nodes[node].suffix = rule } else { nodes[node].exact = rule }
        }
    }

    /// The rule for a normalized host: its exact entry, else the deepest suffix that leaves at least one label of
    /// the host to its left (`.example.com` matches `a.example.com`, never `example.com`).
    func lookup(_ host: String) -> ProfileCatalog.HostRule? {
        let bytes = host.utf8
        var node = 0
        var best: ProfileCatalog.HostRule?
        var end = bytes.endIndex
        while true {
            var start = end
            while start > bytes.startIndex, bytes[bytes.index(before: start)] != UInt8(ascii: ".") {
                start = bytes.index(before: start)
            }
            // Labels of up to 15 bytes make small strings: no allocation.
            guard let next = edges[Edge(node: node, label: String(host[start..<end]))] else { return best }
            node = next
            if start == bytes.startIndex { return nodes[node].exact ?? best }
            if let suffix = nodes[node].suffix { best = suffix }
            end = bytes.index(before: start)
        }
    }
}
