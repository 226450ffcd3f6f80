internal import CXMLSec
import Foundation

/// A borrowed view of one element of an ``XMLTree``; valid only while its tree is alive.
struct XMLElement {
    let node: OpaquePointer

    init(_ node: OpaquePointer) { self.node = node }

    /// The element's local name.
    var localName: String { String(cString: ssokit_node_name(node)) }

    /// The element's namespace URI, or nil when it has none.
    var namespaceURI: String? { ssokit_node_namespace(node).map { String(cString: $0) } }

    /// Whether the element is `localName` in `namespace`.
    func `is`(_ localName: StaticString, in namespace: StaticString) -> Bool {
        guard strcmp(ssokit_node_name(node), localName.cString) == 0, let uri = ssokit_node_namespace(node) else {
            return false
        }
        return strcmp(uri, namespace.cString) == 0
    }

    /// The value of the attribute `name` with no namespace, or nil.
    func attribute(_ name: StaticString) -> String? {
        var borrowed: UnsafePointer<CChar>?
        switch ssokit_node_attribute_borrowed(node, name.cString, &borrowed) {
        case 0: return nil
        case 1: return borrowed.map { String(cString: $0) }
        default:
            guard let value = ssokit_node_attribute(node, name.cString) else { return nil }
            defer { ssokit_free(value) }
            return String(cString: value)
        }
    }

    /// Calls `body` with the UTF-8 bytes of the attribute `name` (no namespace), borrowed from the tree when they are
    /// one text node; nil when the attribute is absent.
    func withAttribute<Result>(
        _ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        var borrowed: UnsafePointer<CChar>?
        switch ssokit_node_attribute_borrowed(node, name.cString, &borrowed) {
        case 0: return nil
        case 1:
            guard let borrowed else { return nil }
            return borrowed.withMemoryRebound(to: UInt8.self, capacity: strlen(borrowed) + 1) {
                body(UnsafeBufferPointer(start: $0, count: strlen(borrowed)))
            }
        default:
            guard let value = ssokit_node_attribute(node, name.cString) else { return nil }
            defer { ssokit_free(value) }
            return value.withMemoryRebound(to: UInt8.self, capacity: strlen(value) + 1) {
                body(UnsafeBufferPointer(start: $0, count: strlen(value)))
            }
        }
    }

    /// Whether the attribute `name` is present and equal to `expected` (as `attribute(name) == expected` decides,
    /// without building a String when the bytes settle it).
    func attribute(_ name: StaticString, equals expected: String) -> Bool {
        withAttribute(name) { XMLText.equals($0, expected) } ?? false
    }

    /// The parent element, or nil at the root.
    var parent: XMLElement? {
        guard let parent = ssokit_node_parent(node), ssokit_node_type(parent) == Int32(SSOKIT_NODE_ELEMENT) else {
            return nil
        }
        return XMLElement(parent)
    }

    /// The element children, in document order.
    var children: [XMLElement] {
        var result: [XMLElement] = []
        forEachChild { result.append($0) }
        return result
    }

    /// Calls `visit` with each element child in document order.
    func forEachChild(_ visit: (XMLElement) -> Void) {
        var child = ssokit_node_first_child(node)
        while let current = child {
            if ssokit_node_type(current) == Int32(SSOKIT_NODE_ELEMENT) { visit(XMLElement(current)) }
            child = ssokit_node_next(current)
        }
    }

    /// The element children named `localName` in `namespace`.
    func children(_ localName: StaticString, in namespace: StaticString) -> [XMLElement] {
        var result: [XMLElement] = []
        forEachChild(localName, in: namespace) { result.append($0) }
        return result
    }

    /// Calls `visit` with each element child named `localName` in `namespace`, in document order, without an array.
    func forEachChild<Failure: Error>(
        _ localName: StaticString, in namespace: StaticString, _ visit: (XMLElement) throws(Failure) -> Void
    ) throws(Failure) {
        var child = ssokit_node_child_named(node, nil, localName.cString, namespace.cString)
        while let current = child {
            try visit(XMLElement(current))
            guard let next = ssokit_node_next(current) else { return }
            child = ssokit_node_child_named(node, next, localName.cString, namespace.cString)
        }
    }

    /// The only element child named `localName` in `namespace` and how many there are, without building an array.
    func singleChild(_ localName: StaticString, in namespace: StaticString) -> (first: XMLElement?, count: Int) {
        var first: OpaquePointer?
        let count = ssokit_node_count_children_named(node, localName.cString, namespace.cString, &first)
        return (first.map(XMLElement.init), Int(count))
    }

    /// The first element child named `localName` in `namespace`.
    func firstChild(_ localName: StaticString, in namespace: StaticString) -> XMLElement? {
        ssokit_node_child_named(node, nil, localName.cString, namespace.cString).map(XMLElement.init)
    }

    /// Every descendant element (not the element itself), depth first, in document order. The tree's depth is
    /// capped at parse time, so the recursion is bounded.
    func forEachDescendant(_ visit: (XMLElement) -> Void) {
        forEachChild { child in
            visit(child)
            child.forEachDescendant(visit)
        }
    }

    /// The full text content: every text and CDATA descendant concatenated, comments and processing instructions
    /// skipped. A comment inside a value therefore never truncates it (the CVE-2017-11427 class).
    var textContent: String {
        if let only = ssokit_node_first_child(node), ssokit_node_next(only) == nil,
            Int(ssokit_node_type(only)) == SSOKIT_NODE_TEXT, let text = ssokit_node_text(only)
        {
            return String(cString: text)
        }
        var bytes: [UInt8] = []
        XMLElement.appendText(of: node, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the full text content equals `expected` (as `textContent == expected` decides, without building a
    /// String when the element holds one text node and the bytes settle it).
    func textContent(equals expected: String) -> Bool {
        if let only = ssokit_node_first_child(node), ssokit_node_next(only) == nil,
            Int(ssokit_node_type(only)) == SSOKIT_NODE_TEXT, let text = ssokit_node_text(only)
        {
            return text.withMemoryRebound(to: UInt8.self, capacity: strlen(text) + 1) {
                XMLText.equals(UnsafeBufferPointer(start: $0, count: strlen(text)), expected)
            }
        }
        return textContent == expected
    }

    /// Whether the element has element children (text-only values must not).
    var hasElementChildren: Bool {
        var found = false
        forEachChild { _ in found = true }
        return found
    }

    /// Whether a comment or processing instruction occurs anywhere inside the element.
    var containsCommentOrProcessingInstruction: Bool {
        var child = ssokit_node_first_child(node)
        while let current = child {
            switch Int(ssokit_node_type(current)) {
            case SSOKIT_NODE_COMMENT, SSOKIT_NODE_PI: return true
            case SSOKIT_NODE_ELEMENT:
                if XMLElement(current).containsCommentOrProcessingInstruction { return true }
            default: break
            }
            child = ssokit_node_next(current)
        }
        return false
    }

    /// Whether this is the same node as `other`.
    func isSameNode(as other: XMLElement) -> Bool { node == other.node }

    private static func appendText(of node: OpaquePointer, to bytes: inout [UInt8]) {
        var child = ssokit_node_first_child(node)
        while let current = child {
            switch Int(ssokit_node_type(current)) {
            case SSOKIT_NODE_TEXT, SSOKIT_NODE_CDATA:
                if let text = ssokit_node_text(current) {
                    let length = strlen(text)
                    text.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
                        bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: length))
                    }
                }
            case SSOKIT_NODE_ELEMENT:
                appendText(of: current, to: &bytes)
            default: break
            }
            child = ssokit_node_next(current)
        }
    }
}

extension StaticString {
    /// The literal as a C string, without a copy (string literals are NUL-terminated in the binary).
    var cString: UnsafePointer<CChar> { UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self) }
}
