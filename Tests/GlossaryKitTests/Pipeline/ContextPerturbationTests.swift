import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// Every value of every template context, changed one at a time (`BuildOptions.contextHook`), makes an incremental
/// build — `glossary build` and the preview server — give what a clean build with the same change gives, with the
/// built-in default theme: a file's fingerprint is its context's, so no value a template reads can leave a file stale,
/// whatever values the contexts gain.
@Suite struct ContextPerturbationTests {
    typealias Folder = IncrementalBuildTests.Folder
    typealias Mode = IncrementalBuildTests.Mode

    /// A step along a context to one of its values.
    enum Step: Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): "[\(index)]"
            }
        }
    }

    /// Every value below `value` that is not a list or an object (slots aside: the body is not the context's), with
    /// the steps to it.
    static func leaves(_ value: MustacheValue, at path: [Step] = []) -> [[Step]] {
        switch value {
        case .array(let items): items.indices.flatMap { leaves(items[$0], at: path + [.index($0)]) }
        case .object(let object): object.elements.flatMap { leaves($0.value, at: path + [.key($0.key)]) }
        case .slot: []
        default: [path]
        }
    }

    /// `value` with the value at `path` changed into another of its kind.
    static func perturbed(_ value: MustacheValue, at path: ArraySlice<Step>) -> MustacheValue {
        guard let step = path.first else {
            switch value {
            case .string(let text): return .string(text + " (changed)")
            case .bool(let flag): return .bool(!flag)
            case .int(let number): return .int(number + 1)
            case .double(let number): return .double(number + 0.5)
            default: return .string("changed")
            }
        }
        switch (value, step) {
        case (.array(var items), .index(let index)):
            items[index] = perturbed(items[index], at: path.dropFirst())
            return .array(items)
        case (.object(var object), .key(let key)):
            object[key] = perturbed(object[key] ?? .null, at: path.dropFirst())
            return .object(object)
        default:
            return value
        }
    }

    /// The kind of file a path is, as far as its context goes.
    static func kind(_ path: String) -> String {
        if path == "404.html" || path == "search/index.html" || path == "terms/index.html" { return path }
        return path.hasPrefix("terms/") ? "term" : "page"
    }

    @Test(arguments: Mode.allCases)
    func everyContextValueChangedRemakesWhatShowsIt(mode: Mode) async throws {
        let folder = try Folder(
            IncrementalBuildTests.startingSite.merging([
                "content/guide/more.md":
                    "---\ntitle: More\ndate: 2024-05-06\ntags: [one, two]\n---\n## One\n\n### Two\n\n## Three\n\nOn [[ligature]] and [[nosuch]].\n",
                "content/guide/deeper/page.md": "---\ntitle: Deeper\ndescription: Below the guide.\n---\nA page in a folder without an index.\n",
            ]) { $1 }, theme: .builtIn)
        let builds = try IncrementalBuildTests.Builds(folder, mode: mode)
        // Every template's context, as the build makes it.
        let contexts = Mutex<[String: MustacheValue]>([:])
        var options = builds.options
        options.contextHook = { path, context in contexts.withLock { $0[path] = context } }
        _ = await SiteBuilder(options: options).build(into: MemorySink())
        // One change for each value of each kind of file (the same value of another page adds nothing).
        var seen = Set<String>()
        var changes: [(path: String, steps: [Step])] = []
        for (path, context) in contexts.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            for steps in Self.leaves(context) {
                // The theme's strings (`t`) are one value, the same in every file of a language, each shown by some
                // templates only: one of them stands for all.
                if steps.first == .key("t"), steps.dropFirst().first != .key("home") { continue }
                let pattern = Self.kind(path) + " " + steps.map { if case .key(let key) = $0 { key } else { "[]" } }.joined(separator: ".")
                if seen.insert(pattern).inserted { changes.append((path, steps)) }
            }
        }
        #expect(changes.count > 100, "\(changes.count) values")
        print("context perturbation (\(mode)): \(changes.count) values of \(contexts.withLock { $0.count }) contexts")

        let unchanged = await IncrementalBuildTests.clean(builds.options)
        await builds.check("first build")
        var shown = 0
        for (path, steps) in changes {
            let name = "\(path) \(steps.map(\.description).joined(separator: "."))"
            let hook: @Sendable (String, inout MustacheValue) -> Void = { at, context in
                if at == path { context = Self.perturbed(context, at: steps[...]) }
            }
            // The incremental build with the value changed is the clean build with it changed, and the one after it
            // the clean build without.
            var perturbedOptions = builds.options
            perturbedOptions.contextHook = hook
            let perturbed = await IncrementalBuildTests.clean(perturbedOptions)
            await builds.check("change \(name)", hook: hook, clean: perturbed)
            if perturbed.files?[path] != unchanged.files?[path] { shown += 1 }
            await builds.check("undo \(name)", clean: unchanged)
        }
        // Most values show in the default theme; those that don't still decide the fingerprint.
        #expect(shown * 2 > changes.count, "\(shown) of \(changes.count) values change what the default theme shows")
    }
}
