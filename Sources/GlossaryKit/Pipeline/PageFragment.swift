import Foundation

/// A page's body HTML made while it was parsed, with the term markup and link destinations it was made with:
/// the build uses it only if those are still what the resolved site gives the page.
struct PageFragment: Sendable {
    var html: String
    var wrappers: [MarkdownDocument.Wrapper]
    var destinations: [String?]
}
