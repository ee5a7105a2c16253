import Foundation
import Testing

@testable import GlossaryServer

@Suite struct ServedSiteTests {
    let folder = URL(fileURLWithPath: "/nonexistent")

    @Test func listsEveryFolderOnTheWayToEachFile() {
        let site = ServedSite(
            folder: folder, paths: ["index.html", "guide/intro/index.html", "guide/index.html", "terms/café/index.html", "a/b/c/d.txt"],
            buildID: "1", mount: "/")
        #expect(site.folders == ["guide/", "guide/intro/", "terms/", "terms/café/", "a/", "a/b/", "a/b/c/"])
    }

    @Test func aBuildWithTheSameFilesKeepsTheFoldersAndOneWithOthersListsThemAgain() {
        let first = ServedSite(folder: folder, paths: ["guide/index.html", "index.html"], buildID: "1", mount: "/")
        let same = ServedSite(folder: folder, paths: ["index.html", "guide/index.html"], buildID: "2", mount: "/", previous: first)
        #expect(same.folders == ["guide/"])
        let more = ServedSite(
            folder: folder, paths: ["index.html", "guide/index.html", "guide/new/index.html"], buildID: "3", mount: "/", previous: same)
        #expect(more.folders == ["guide/", "guide/new/"])
        let fewer = ServedSite(folder: folder, paths: ["index.html"], buildID: "4", mount: "/", previous: more)
        #expect(fewer.folders.isEmpty)
    }
}
