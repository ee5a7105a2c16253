extension SiteBuilder {
    /// What `glossary check` reports: every problem of a build that renders nothing, and the problems only a check
    /// looks for (team entries no page uses, which a build doesn't warn about: many glossaries hold them on purpose).
    public func check() async -> BuildResult {
        var result = await build(into: nil)
        if let site = result.site { result.diagnostics = DiagnosticLog.capped(Self.ordered(result.diagnostics + site.unusedTermDiagnostics())) }
        return result
    }
}
