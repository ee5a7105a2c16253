import Foundation

/// Writes a built site held in memory to its output folder, atomically (see `SiteTransaction`).
public struct SiteWriter: Sendable {
    public var output: URL

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    /// Files written at once: on this project's ext4 virtual disks two writers beat one, more only added kernel time.
    static let writers = 2

    /// Writes every file, then swaps the new site in; returns the old sites kept for their dotfiles.
    @discardableResult
    public func write(_ site: SiteOutput) throws(SiteTransaction.Failure) -> [(folder: URL, dotfiles: [String])] {
        let transaction = try SiteTransaction(output: output)
        let paths = site.paths.sorted()
        let failures = paths.parallelMap(jobs: Self.writers) { path -> SiteTransaction.Failure? in
            do throws(SiteTransaction.Failure) {
                if let data = site.files[path] {
                    try transaction.write(path, data)
                } else if let source = site.copies[path] {
                    try transaction.copy(path, from: source)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first {
            transaction.abandon()
            throw failure
        }
        try transaction.commit()
        return transaction.kept
    }
}
