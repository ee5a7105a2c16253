import CCmark
import Glibc

/// libcmark, as the rest of the program sees it: parsing, the tree's nodes (`CMarkNode`) and rendering HTML. This is
/// the only file that touches cmark; everything else works on these Swift types.
///
/// Every tree is made with one allocator, `NodeArena`'s: nodes made while an arena is current on the thread come
/// from it, and what cmark renders from a tree is freed with it.
enum CMark {
    /// cmark's parse and render options.
    struct Options: OptionSet {
        let rawValue: Int32

        /// cmark's defaults: safe mode (raw HTML left out), no smart punctuation.
        static let `default` = Options(rawValue: CMARK_OPT_DEFAULT)
        /// Gives every node its source position (`CMarkNode.startLine` and the others).
        static let sourcePosition = Options(rawValue: CMARK_OPT_SOURCEPOS)
    }

    /// The version of the libcmark the program runs with, such as `0.30.2`.
    static var version: String { String(cString: cmark_version_string()) }

    /// Parses `source` into a tree the caller frees (`CMarkNode.free`). `source` is made contiguous UTF-8 in place,
    /// so what reads its bytes after pays no copy.
    static func parse(_ source: inout String, options: Options) -> CMarkNode {
        let parser = cmark_parser_new_with_mem(options.rawValue, memory)!
        defer { cmark_parser_free(parser) }
        source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        return CMarkNode(cmark_parser_finish(parser)!)
    }

    /// The allocator every tree is made with, `NodeArena`'s C functions; it lives as long as the program, as cmark
    /// keeps a pointer to it in every node.
    fileprivate nonisolated(unsafe) static let memory: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(to: cmark_mem(calloc: NodeArena.callocFunction, realloc: NodeArena.reallocFunction, free: NodeArena.freeFunction))
        return memory
    }()
}

/// A node of a cmark tree. A value that names the node: it owns nothing, and is valid while the node is, until it is
/// freed itself or with its tree.
struct CMarkNode: Hashable {
    fileprivate let pointer: OpaquePointer

    fileprivate init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A node's type. The cases are `cmark_node_type`'s, in its order: a case's raw value is cmark's.
    enum Kind: UInt32, CaseIterable {
        case none
        case document, blockQuote, list, item, codeBlock, htmlBlock, customBlock, paragraph, heading, thematicBreak
        case text, softBreak, lineBreak, code, htmlInline, customInline, emphasis, strong, link, image

        var isBlock: Bool { (Kind.document.rawValue...Kind.thematicBreak.rawValue).contains(rawValue) }
        var isInline: Bool { (Kind.text.rawValue...Kind.image.rawValue).contains(rawValue) }
    }

    /// A new node, made with the tree allocator: it belongs in a tree (or is freed) before its arena goes.
    static func make(_ kind: Kind) -> CMarkNode {
        CMarkNode(cmark_node_new_with_mem(cmark_node_type(rawValue: kind.rawValue), CMark.memory)!)
    }

    var kind: Kind { Kind(rawValue: cmark_node_get_type(pointer).rawValue) ?? .none }

    // MARK: Navigation

    var parent: CMarkNode? { cmark_node_parent(pointer).map(CMarkNode.init) }
    var firstChild: CMarkNode? { cmark_node_first_child(pointer).map(CMarkNode.init) }
    var lastChild: CMarkNode? { cmark_node_last_child(pointer).map(CMarkNode.init) }
    var next: CMarkNode? { cmark_node_next(pointer).map(CMarkNode.init) }
    var previous: CMarkNode? { cmark_node_previous(pointer).map(CMarkNode.init) }

    // MARK: Contents

    /// The text of a text, code, code block or raw HTML node (nil for other nodes), copied.
    var literal: String? {
        get { cmark_node_get_literal(pointer).map { String(cString: $0) } }
        nonmutating set { set(newValue, with: cmark_node_set_literal) }
    }

    /// The literal's bytes where the node keeps them, not copied (a page can have millions of text nodes): valid until
    /// the literal is set or the node freed.
    var literalBytes: UnsafeBufferPointer<UInt8>? {
        guard let literal = cmark_node_get_literal(pointer) else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal))
    }

    /// Sets the literal to `bytes` (UTF-8 without NUL), which may be part of the node's own literal.
    func setLiteral(_ bytes: UnsafeBufferPointer<UInt8>) {
        // The C string made on the stack: a Swift string for each of a million pieces cost an allocation more.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            bytes.withMemoryRebound(to: CChar.self) { _ = buffer.initialize(from: $0) }
            buffer[bytes.count] = 0
            cmark_node_set_literal(pointer, buffer.baseAddress)
        }
    }

    /// A link's or image's destination (nil for other nodes).
    var url: String? {
        get { cmark_node_get_url(pointer).map { String(cString: $0) } }
        nonmutating set { set(newValue, with: cmark_node_set_url) }
    }

    /// A heading's level, 1 to 6 (0 for other nodes).
    var headingLevel: Int { Int(cmark_node_get_heading_level(pointer)) }

    /// Whether a list is tight: its items' paragraphs render without `<p>` (false for other nodes).
    var isTight: Bool {
        get { cmark_node_get_list_tight(pointer) != 0 }
        nonmutating set { cmark_node_set_list_tight(pointer, newValue ? 1 : 0) }
    }

    /// Sets the HTML a custom node renders before its children.
    func setOnEnter(_ html: String) {
        set(html, with: cmark_node_set_on_enter)
    }

    /// Sets the HTML a custom node renders before its children, as NUL-terminated bytes (which need not be UTF-8).
    func setOnEnter(cString html: UnsafePointer<CChar>) {
        cmark_node_set_on_enter(pointer, html)
    }

    /// Sets the HTML a custom node renders after its children.
    func setOnExit(_ html: String) {
        set(html, with: cmark_node_set_on_exit)
    }

    /// Sets the HTML a custom node renders after its children, as NUL-terminated bytes (which need not be UTF-8).
    func setOnExit(cString html: UnsafePointer<CChar>) {
        cmark_node_set_on_exit(pointer, html)
    }

    /// Sets a string of the node with cmark's `setter`, which copies it (nil sets none).
    private func set(_ string: String?, with setter: (OpaquePointer?, UnsafePointer<CChar>?) -> Int32) {
        guard let string else {
            _ = setter(pointer, nil)
            return
        }
        // A short string lives in the value, not in memory ending with a NUL: `withCString` puts it on the stack, where
        // passing the string itself made an array of it on the heap, for every one of a million references.
        _ = string.withCString { setter(pointer, $0) }
    }

    // MARK: Source positions

    /// Where the node stands in the markdown parsed with `CMark.Options.sourcePosition`: 1-based lines, and 1-based
    /// columns in bytes; 0 where cmark gives none (line breaks, most nodes made afterwards).
    var startLine: Int { Int(cmark_node_get_start_line(pointer)) }
    var startColumn: Int { Int(cmark_node_get_start_column(pointer)) }
    var endLine: Int { Int(cmark_node_get_end_line(pointer)) }
    var endColumn: Int { Int(cmark_node_get_end_column(pointer)) }

    // MARK: Changing the tree

    /// Puts the node (and its subtree) before `sibling`, out of where it was.
    func insert(before sibling: CMarkNode) {
        cmark_node_insert_before(sibling.pointer, pointer)
    }

    /// Puts `child` (and its subtree) after the node's children, out of where it was.
    func appendChild(_ child: CMarkNode) {
        cmark_node_append_child(pointer, child.pointer)
    }

    /// Takes the node (and its subtree) out of its tree, to be put elsewhere or freed.
    func unlink() {
        cmark_node_unlink(pointer)
    }

    /// Takes the node out of its tree and frees it and its subtree.
    func free() {
        cmark_node_free(pointer)
    }

    // MARK: Rendering

    /// Calls `body` with the HTML of the node's subtree (nil when cmark renders none). The bytes are valid in `body`
    /// only; they are UTF-8 but for what custom nodes render.
    func withHTML<Result>(options: CMark.Options, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        guard let html = cmark_render_html(pointer, options.rawValue) else { return nil }
        // Made with the tree's allocator, whatever arena (if any) is current.
        defer { CMark.memory.pointee.free(UnsafeMutableRawPointer(html)) }
        return try html.withMemoryRebound(to: UInt8.self, capacity: strlen(html)) { try body(UnsafeBufferPointer(start: $0, count: strlen(html))) }
    }
}

// MARK: Walks

extension CMarkNode {
    /// The subtree's nodes in document order, as cmark's iterator walks them: every node entered (`entering`) and,
    /// if its kind can have children, exited after them, empty or not. The tree must not change during the walk.
    var events: Events { Events(root: self) }

    struct Events: Sequence {
        let root: CMarkNode

        func makeIterator() -> Iterator { Iterator(root) }

        /// cmark's iterator, freed with the value.
        final class Iterator: IteratorProtocol {
            private let iterator: OpaquePointer

            fileprivate init(_ root: CMarkNode) {
                iterator = cmark_iter_new(root.pointer)
            }

            deinit {
                cmark_iter_free(iterator)
            }

            func next() -> (node: CMarkNode, entering: Bool)? {
                let event = cmark_iter_next(iterator)
                guard event != CMARK_EVENT_DONE, let node = cmark_iter_get_node(iterator) else { return nil }
                return (CMarkNode(node), event == CMARK_EVENT_ENTER)
            }
        }
    }

    /// Calls `body` with every block of the subtree (the node included) in document order, until it returns false.
    /// Inline nodes are not visited: only container blocks (quotes, lists, items, custom blocks) are entered, so the
    /// walk costs the blocks, not the millions of inline nodes a big page has.
    func forEachBlock(_ body: (CMarkNode, Kind) -> Bool) {
        var stack: [CMarkNode] = [self]
        while let node = stack.popLast() {
            let kind = node.kind
            guard kind.isBlock else { continue }
            guard body(node, kind) else { return }
            switch kind {
            case .document, .blockQuote, .list, .item, .customBlock:
                // Children pushed last first, so the first child is visited next.
                let start = stack.count
                var child = node.firstChild
                while let current = child {
                    stack.append(current)
                    child = current.next
                }
                stack[start...].reverse()
            default:
                break
            }
        }
    }
}
