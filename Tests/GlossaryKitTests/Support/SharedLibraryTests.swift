import Foundation
import Testing

@testable import GlossaryKit

/// `SharedLibrary` against the C library itself: found functions are callable, and a failed load says why.
@Suite struct SharedLibraryTests {
    typealias Strlen = @convention(c) (UnsafePointer<CChar>) -> Int

    @Test func aFunctionFoundIsTheLibrarysOwn() throws {
        let loaded = SharedLibrary.load("libc.so.6") { library in library.function("strlen", as: Strlen.self) }
        let strlen = try loaded.get()
        #expect(strlen("glossary") == 8)
    }

    @Test func aMissingFunctionFailsTheLoadNamingEveryOneMissing() {
        let loaded = SharedLibrary.load("libc.so.6") { library in
            (library.symbol("glossary_no_such_function"), library.function("strlen", as: Strlen.self), library.symbol("glossary_nor_this"))
        }
        guard case .failure(let error) = loaded else {
            Issue.record("loaded although two functions are missing")
            return
        }
        #expect(error.reason == "libc.so.6 lacks glossary_no_such_function, glossary_nor_this")
    }

    @Test func aLibraryThatIsNotThereFailsWithWhatTheLoaderSaid() {
        let loaded = SharedLibrary.load("libglossary-not-installed.so.1") { library in library.symbol("anything") }
        guard case .failure(let error) = loaded else {
            Issue.record("loaded a library that doesn't exist")
            return
        }
        #expect(error.reason.hasPrefix("libglossary-not-installed.so.1: cannot open shared object file"), "\(error.reason)")
    }
}
