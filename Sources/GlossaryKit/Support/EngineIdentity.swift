import Foundation

/// Which build of glossary is running: its version and its executable's size and modification time. Outputs
/// and records made by another build of glossary may differ from this one's, so a state made under another
/// identity is not reused.
enum EngineIdentity {
    static let current: Fingerprint = {
        var hasher = FingerprintHasher()
        hasher.combine(GlossaryVersion.current)
        if let signature = FileSignature(path: "/proc/self/exe") {
            hasher.combine(Int(signature.size))
            hasher.combine(signature.modifiedSeconds)
            hasher.combine(signature.modifiedNanoseconds)
        }
        return hasher.finish()
    }()
}
