import Foundation

/// A theme asset: a file of the site's to copy, or bytes of the built-in theme to write.
public enum ThemeAsset: Sendable, Equatable {
    case file(URL)
    case data(Data)
}
