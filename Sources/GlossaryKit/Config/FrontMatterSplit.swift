/// A page's source cut into its YAML front matter and its markdown body.
public struct FrontMatterSplit: Sendable, Equatable {
    /// The YAML between the `---` lines, line endings as written; nil when the page has no front
    /// matter, empty when it has an empty one.
    public var yaml: String?
    /// Exactly the text after the closing line (the whole page, minus a BOM, without front matter).
    public var body: String
    /// 1-based file line of the first YAML line: pass `yamlFirstLine - 1` as the YAML line offset.
    public var yamlFirstLine: Int
    /// 1-based file line where the body starts: body line N is file line `bodyFirstLine + N - 1`.
    public var bodyFirstLine: Int

    public init(yaml: String?, body: String, yamlFirstLine: Int, bodyFirstLine: Int) {
        self.yaml = yaml
        self.body = body
        self.yamlFirstLine = yamlFirstLine
        self.bodyFirstLine = bodyFirstLine
    }
}
