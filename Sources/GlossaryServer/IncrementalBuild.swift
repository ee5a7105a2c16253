import Foundation
import GlossaryKit

/// One build of the preview server, and which files of the served site it changed (nil when it failed).
public struct IncrementalBuild: Sendable {
    public var result: BuildResult
    public var changedPaths: Set<String>?
}
