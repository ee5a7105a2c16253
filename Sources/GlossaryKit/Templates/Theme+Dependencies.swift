extension Theme {
    /// `name` and every template it reaches through partials and parents, sorted.
    func dependencyClosure(of name: String) -> [String] {
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if let template = templates[next] { pending += MustacheNode.referencedTemplates(template.nodes) }
        }
        return seen.sorted()
    }
}

extension MustacheNode {
    /// Names of the partials and parents these nodes include, at any depth.
    static func referencedTemplates(_ nodes: [MustacheNode]) -> [String] {
        var names: [String] = []
        for node in nodes {
            switch node {
            case .text, .variable: break
            case .section(_, _, let body): names += referencedTemplates(body)
            case .partial(let name, _): names.append(name)
            case .parent(let name, _, let overrides):
                names.append(name)
                for override in overrides.values { names += referencedTemplates(override.body) }
            case .block(let block): names += referencedTemplates(block.defaultBody)
            }
        }
        return names
    }
}
