import Foundation
import Synchronization

/// The markup around a term reference in a page's HTML: a link to the term's page, or a marked span when the
/// term has no definition. A pure function of the key, the term it links to, the site's root and whether
/// auto-linking found the reference (an automatic link is marked `data-autolink`; one to a term without a
/// definition stays plain text). A link's `data-term` is its term's key, by which a card finds the term in
/// `terms/index.json` or the shard of it where the key falls (`TermShards`).
public enum TermMarkup {
    /// The term a reference links to: its page's slug and its key (`TermKey.rawValue`).
    public struct Target: Sendable, Hashable {
        public var slug: String
        public var key: String

        public init(slug: String, key: String) {
            self.slug = slug
            self.key = key
        }

        public init(_ definition: TermDefinition) {
            self.init(slug: definition.slug, key: definition.key.rawValue)
        }
    }

    public static func wrapper(key: TermKey, linked: Target?, rootPath: String, isAutomatic: Bool = false) -> MarkdownDocument.Wrapper {
        if isAutomatic {
            guard let linked else { return .init(open: "", close: "") }
            return .init(
                open: "<a class=\"term\" href=\"\(href(linked.slug, rootPath: rootPath))\" data-term=\"\(HTML.escape(linked.key))\" data-autolink>",
                close: "</a>")
        }
        guard let linked else {
            return .init(
                open: "<span class=\"term term-unknown\" data-term-unknown=\"\(HTML.escape(key.rawValue))\" title=\"No definition found\">",
                close: "</span>")
        }
        return .init(open: "<a class=\"term\" href=\"\(href(linked.slug, rootPath: rootPath))\" data-term=\"\(HTML.escape(linked.key))\">", close: "</a>")
    }

    /// The term page's href, escaped for an attribute: as `BuiltSite.href` makes it (the root may need encoding).
    private static func href(_ slug: String, rootPath: String) -> String {
        HTML.escape(URLPath.encoded("\(rootPath)terms/\(slug)/"))
    }

    /// The wrappers of `references`, index-aligned with them: each made once per term and kind on the page (a page of
    /// a million references names a few hundred terms), so the page's equal wrappers share their strings; with a
    /// `cache`, once per build (every page of a site names the same few thousand terms).
    static func wrappers(
        _ references: [TermReference], rootPath: String, cache: Cache? = nil, linked: (TermKey) -> Target?
    ) -> [MarkdownDocument.Wrapper] {
        var made: [Use: MarkdownDocument.Wrapper] = [:]
        made.reserveCapacity(references.count)
        return references.map { reference in
            let use = Use(key: reference.key, isAutomatic: reference.isAutomatic)
            if let wrapper = made[use] { return wrapper }
            let target = linked(reference.key)
            let wrapper =
                cache?.wrapper(use, target: target, rootPath: rootPath)
                ?? wrapper(key: reference.key, linked: target, rootPath: rootPath, isAutomatic: reference.isAutomatic)
            made[use] = wrapper
            return wrapper
        }
    }

    /// Wrappers made once for a build's pages, by everything a wrapper is made from, so a cache shared by values
    /// that differ can never give one the other's.
    ///
    /// Found by the use alone (one hash of the key), then checked against the target and root it was made for; a use
    /// whose target or root has changed gets a new wrapper, which replaces the old.
    final class Cache: Sendable {
        private struct Made {
            var target: Target?
            var rootPath: String
            var wrapper: MarkdownDocument.Wrapper
        }
        private let made = Mutex<[Use: Made]>([:])

        fileprivate func wrapper(_ use: Use, target: Target?, rootPath: String) -> MarkdownDocument.Wrapper {
            if let known = made.withLock({ $0[use] }), known.target == target, known.rootPath == rootPath { return known.wrapper }
            let wrapper = TermMarkup.wrapper(key: use.key, linked: target, rootPath: rootPath, isAutomatic: use.isAutomatic)
            made.withLock { $0[use] = Made(target: target, rootPath: rootPath, wrapper: wrapper) }
            return wrapper
        }
    }

    /// What a reference's wrapper depends on, the site aside.
    fileprivate struct Use: Hashable {
        var key: TermKey
        var isAutomatic: Bool
    }
}
