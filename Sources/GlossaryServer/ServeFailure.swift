import Foundation
import GlossaryKit
import Synchronization

/// Why the preview server could not start.
public struct ServeFailure: Error, CustomStringConvertible {
    public var description: String
}
