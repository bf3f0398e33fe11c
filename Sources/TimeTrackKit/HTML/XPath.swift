import CLibXML2
import CXMLArena
import Foundation
import TimeTrackCore

/// A compiled XPath expression, evaluated relative to a node.
public final class XPath: @unchecked Sendable {
    /// The expression text.
    public let expression: String
    private let compiled: xmlXPathCompExprPtr
    /// libxml2 does not promise that one compiled expression may be evaluated on two threads
    /// at once (pages are parsed in parallel); evaluations of one expression take turns.
    private let lock = NSLock()

    /// Compiles an expression; a syntax error is a `.selector` error naming it.
    public init(_ expression: String) throws {
        ttxml_install()  // libxml2's allocator is chosen before its first allocation
        clibxml2_silence()
        guard let compiled = xmlXPathCompile(expression) else {
            throw TimeTrackError(.selector, "'\(expression)' is not a valid XPath expression", context: ["selector": expression])
        }
        self.expression = expression
        self.compiled = compiled
    }

    deinit { xmlXPathFreeCompExpr(compiled) }

    /// The element nodes the expression selects from `node`, in document order.
    public func evaluate(on node: HTMLNode) -> [HTMLNode] {
        clibxml2_silence()
        guard let context = xmlXPathNewContext(node.document.doc) else { return [] }
        defer { xmlXPathFreeContext(context) }
        context.pointee.node = node.raw
        lock.lock()
        let evaluated = xmlXPathCompiledEval(compiled, context)
        lock.unlock()
        guard let result = evaluated else { return [] }
        defer { xmlXPathFreeObject(result) }
        guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let table = set.pointee.nodeTab else { return [] }
        var nodes: [HTMLNode] = []
        nodes.reserveCapacity(Int(set.pointee.nodeNr))
        for index in 0..<Int(set.pointee.nodeNr) {
            if let raw = table[index], raw.pointee.type == XML_ELEMENT_NODE { nodes.append(HTMLNode(raw: raw, document: node.document)) }
        }
        return nodes
    }
}
