import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// A file checked alone from its text (the language server's check) says what a check of the whole site says of it.
@Suite struct LiveSiteTests {
    static let site = """
        -- content/index.md --
        # Home

        About [[keybord]], [[crane]], [[Keys|keyboard]] and [[keyboards]].
        A [link](missing.md), an [anchor](guide.md#nowhere) and [one that works](guide.md#setup).
        -- content/guide.md --
        # Guide

        ## Setup

        Uses [[mouse]].
        -- content/glossary/keyboard.md --
        ---
        term: keyboard
        aliases: [keys]
        see_also: [trackpad, /nowhere/]
        ---
        A panel of keys.
        -- content/glossary/mouse.md --
        ---
        term: mouse
        ---
        A pointing device.
        -- content/glossary/unused.md --
        ---
        term: plinth
        ---
        Nobody links here.
        -- content/glossary/crane-bird.md --
        ---
        term: crane
        sense: bird
        ---
        A bird.
        -- content/glossary/crane-machine.md --
        ---
        term: crane
        sense: machine
        ---
        A machine.
        """

    /// An error (a term defined twice) stops the check before links are checked, alone as in the site.
    static let duplicate = """
        -- content/index.md --
        Uses [[mouse]] and [[keybord]], and [a link](missing.md).
        -- content/glossary/mouse.md --
        ---
        term: mouse
        ---
        A pointing device.
        -- content/glossary/mouse-again.md --
        ---
        term: Mouse
        ---
        Defined twice.
        """

    /// A site in two languages: each page's references are its language's terms (French forms by Snowball's stems).
    static let twoLanguages = """
        -- glossary.yml --
        languages: [en, fr]
        -- content/index.md --
        A [[serveur]] here is unknown.
        -- content/fr/index.md --
        Des [[serveurs]] et un [[inconnu]].
        -- content/fr/glossary/serveur.md --
        ---
        term: serveur
        ---
        Un ordinateur qui sert.
        -- content/fr/glossary/serveur-bis.md --
        ---
        term: Serveur
        ---
        Deux fois.
        """

    @Test(arguments: [
        (site, [DiagnosticCode.unknownTerm, .ambiguousTerm, .brokenLink, .brokenAnchor, .unusedTerm]),
        (duplicate, [.unknownTerm, .duplicateTerm]),
        (twoLanguages, [.unknownTerm, .duplicateTerm]),
    ])
    func eachFileCheckedFromItsTextSaysWhatTheSiteCheckSays(_ text: String, codes: [DiagnosticCode]) async throws {
        let site = try ExportTestSite(text)
        defer { site.remove() }
        let live = await LiveSite.check(root: site.root)
        #expect(Set(live.result.diagnostics.map(\.code)) == Set(codes), "the site shows these kinds of per-file problem")
        for file in InlineSite.parse(text).keys.sorted() where file.hasPrefix("content/") {
            let text = try String(contentsOf: site.root.appendingPathComponent(file), encoding: .utf8)
            let alone = await live.diagnostics(text: text, contentPath: String(file.dropFirst("content/".count)))
            let inSite = live.result.diagnostics.filter { $0.location?.file == file }
            #expect(alone.map(\.description) == inSite.map(\.description), "\(file)")
            #expect(alone.map(\.notes) == inSite.map(\.notes), "\(file)")
        }
    }

    @Test func theUnsavedTextIsChecked() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let live = await LiveSite.check(root: site.root)
        let edited = "# Guide\n\n## Setup\n\nUses [[mouse]] and [[trakpad]] and [[Keys]].\n"
        let diagnostics = await live.diagnostics(text: edited, contentPath: "guide.md")
        #expect(
            diagnostics.map(\.description) == [
                "content/guide.md:5:20: warning: no definition found for 'trakpad' (offline, and not in the cache) [unknown-term]"
            ])
    }
}
