extension MustachePartials {
    /// The chains of templates that include themselves unconditionally — through partial and parent tags outside any
    /// section, so rendering them never ends — each as its names from the template it starts in back to that one
    /// (`["footer", "footer"]`, `["a", "b", "a"]`), each cycle once, starting at its first name in sorted order.
    /// Recursion inside a section (a tree's partial rendering its children) ends with the data, and is not one.
    func unconditionalCycles() -> [[String]] {
        var includes: [String: [String]] = [:]
        for (name, template) in templates { includes[name] = Self.unconditionalIncludes(template.nodes).filter { templates[$0] != nil } }
        var cycles: [[String]] = []
        var seen: Set<[String]> = []
        for start in includes.keys.sorted() {
            // Depth first from `start`, along names that sort after it (a cycle is found from its least name).
            var path = [start]
            var next = [includes[start] ?? []]
            while let options = next.last {
                guard let name = options.first else {
                    next.removeLast()
                    path.removeLast()
                    continue
                }
                next[next.count - 1].removeFirst()
                if name == start {
                    if seen.insert(path).inserted { cycles.append(path + [start]) }
                } else if name > start, !path.contains(name) {
                    path.append(name)
                    next.append(includes[name] ?? [])
                }
            }
        }
        return cycles
    }

    /// The names of the partials and parents `nodes` include outside any section, in order, each once.
    private static func unconditionalIncludes(_ nodes: [MustacheNode]) -> [String] {
        var names: [String] = []
        func add(_ nodes: [MustacheNode]) {
            for node in nodes {
                switch node {
                case .partial(let name, _):
                    if !names.contains(name) { names.append(name) }
                case .parent(let name, _, let overrides):
                    if !names.contains(name) { names.append(name) }
                    for (_, override) in overrides.sorted(by: { $0.key < $1.key }) { add(override.body) }
                case .block(let block):
                    add(block.defaultBody)
                case .text, .variable, .section:
                    continue
                }
            }
        }
        add(nodes)
        return names
    }
}
