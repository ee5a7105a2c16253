import Foundation
import GlossaryKit

/// What commands need from the outside world, injected so tests can substitute it.
public struct CommandContext: Sendable {
    public var console: Console
    public var environment: [String: String]
    public var currentDirectory: URL
    /// Makes the dictionary client for a build; nil means terms are never fetched.
    public var makeFetcher: @Sendable (SiteConfig, BuildOptions) -> (any DefinitionFetcher)?

    public init(
        console: Console, environment: [String: String], currentDirectory: URL,
        makeFetcher: @escaping @Sendable (SiteConfig, BuildOptions) -> (any DefinitionFetcher)?
    ) {
        self.console = console
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.makeFetcher = makeFetcher
    }

    public static var standard: CommandContext {
        CommandContext(
            console: .standard, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            makeFetcher: DefaultFetcher.make)
    }

    func resolve(_ path: String?) -> URL {
        guard let path else { return currentDirectory }
        return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
    }
}
