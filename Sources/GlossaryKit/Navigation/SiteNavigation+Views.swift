/// What each page shows of the navigation (see `PageNavigation`).
extension SiteNavigation {
    /// What the page at `urlPath` shows of the navigation.
    ///
    /// On a multilingual site (`languages`), a page sees its language's part of the site: the sidebar and breadcrumbs
    /// start at its language's home, the default language's leave the other languages' folders out, and previous
    /// and next stay in the language.
    public func view(forURL urlPath: String, languages: SiteLanguages? = nil) -> PageNavigation {
        guard let node = node(forURL: urlPath) else { return .unplaced(self) }
        var root = 0
        var excluded: Set<Int> = []
        if let languages, languages.isMultilingual {
            let language = languages.language(ofPath: urlPath)
            root = self.node(forURL: languages.folder(language)) ?? 0
            for code in languages.codes where code != language {
                if let other = self.node(forURL: languages.folder(code)), other != 0 { excluded.insert(other) }
            }
        }
        var ancestors: [Int] = []
        var current = nodes[node].parent
        while let parent = current {
            ancestors.insert(parent, at: 0)
            current = nodes[parent].parent
        }
        let open = Set(ancestors + [node])
        let position = readingPosition[node]
        func neighbour(_ offset: Int) -> PageNavigation.Link? {
            guard let position, readingOrder.indices.contains(position + offset) else { return nil }
            let next = readingOrder[position + offset]
            if let languages, languages.isMultilingual,
                languages.language(ofPath: nodes[next].urlPath ?? "") != languages.language(ofPath: urlPath)
            {
                return nil
            }
            return link(next)
        }
        let entries = node == root ? [] : nodes[node].children.filter { !excluded.contains($0) }.map(link)
        let trail = ancestors.drop { $0 != root }
        return PageNavigation(
            sidebar: level(of: root, open: open, current: node, excluded: excluded), breadcrumbs: node == root ? [] : trail.map(link),
            previous: neighbour(-1),
            next: neighbour(1), sectionEntries: entries)
    }

    /// The children of `parent` as the sidebar shows them: a window around the open one when there are many.
    func level(of parent: Int, open: Set<Int>, current: Int?, excluded: Set<Int> = []) -> PageNavigation.Level {
        let children = excluded.isEmpty ? nodes[parent].children : nodes[parent].children.filter { !excluded.contains($0) }
        var shown = children.indices
        let window = Self.window
        if children.count > window + 2 {
            // The open child is the one on the current page's path (at most one); found from the path, not by
            // scanning every child (levels of thousands of pages, once per page).
            let openChild = open.first { nodes[$0].parent == parent }
            let focus = openChild.map { excluded.isEmpty ? positionInParent[$0] : children.firstIndex(of: $0) ?? 0 } ?? 0
            let start = max(0, min(focus - window / 2, children.count - window))
            shown = start..<(start + window)
        }
        let items = shown.map { index -> PageNavigation.Item in
            let child = children[index]
            let isOpen = open.contains(child)
            let hasLevel = isOpen && !nodes[child].children.isEmpty
            return PageNavigation.Item(
                link: link(child), isCurrent: child == current, isOpen: isOpen, isSection: nodes[child].isSection,
                children: hasLevel ? level(of: child, open: open, current: current) : nil)
        }
        let hidden = shown.count < children.count
        return PageNavigation.Level(
            items: items, hiddenBefore: shown.lowerBound, hiddenAfter: children.count - shown.upperBound,
            listedAt: hidden ? nodes[parent].urlPath : nil)
    }
}

extension SiteNavigation {
    /// The titles of the sections above the page at `urlPath`, the home page left out (`["Guide", "Linking"]`).
    public func trail(forURL urlPath: String) -> [String] {
        guard let node = node(forURL: urlPath) else { return [] }
        var titles: [String] = []
        var current = nodes[node].parent
        while let parent = current, parent != 0 {
            titles.insert(nodes[parent].title, at: 0)
            current = nodes[parent].parent
        }
        return titles
    }
}
