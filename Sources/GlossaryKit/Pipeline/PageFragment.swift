import Foundation

/// A page's body HTML made while it was parsed, with the link destinations it was made with: the build uses it only
/// if those, and its term markup (`FragmentStore.markupIsCurrent`), are still what the resolved site gives the page.
struct PageFragment: Sendable {
    var html: String
    var destinations: [String?]
}
