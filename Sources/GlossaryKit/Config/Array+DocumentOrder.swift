extension Array where Element == Diagnostic {
    /// Sorted by line and column, so problems read top to bottom whatever order they were found in.
    func inDocumentOrder() -> [Diagnostic] {
        sorted { lhs, rhs in
            (lhs.location?.line ?? 0, lhs.location?.column ?? 0) < (rhs.location?.line ?? 0, rhs.location?.column ?? 0)
        }
    }
}
