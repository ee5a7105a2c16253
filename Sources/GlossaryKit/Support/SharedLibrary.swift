import Foundation

/// A C library opened with `dlopen` when a run first needs it, instead of linked: a run that never needs it
/// doesn't load it, nor the libraries it brings, nor relocate them at start. libcurl (fetching) and libmicrohttpd
/// (the preview server) are loaded this way.
///
/// `load` opens the library and lets its caller find every function it will use; one missing fails the load, naming
/// them all, so that no call is made through a function that isn't there.
public struct SharedLibrary {
    /// Why a library can't be used: what `dlopen` said, or the functions it lacks.
    public struct LoadError: Error, Sendable, Equatable {
        public let reason: String
    }

    /// The soname, as opened (`libcurl.so.4`).
    public let name: String
    private let handle: UnsafeMutableRawPointer
    private var missing: [String] = []

    private init(name: String, handle: UnsafeMutableRawPointer) {
        self.name = name
        self.handle = handle
    }

    /// Opens `name` (resolving every symbol now, and keeping them to this library) and has `find` look up its
    /// functions. The library stays loaded for the rest of the run.
    public static func load<Functions>(_ name: String, _ find: (inout SharedLibrary) -> Functions) -> Result<Functions, LoadError> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadError(reason: dlerror().map { String(cString: $0) } ?? "\(name): dlopen failed"))
        }
        var library = SharedLibrary(name: name, handle: handle)
        let functions = find(&library)
        guard library.missing.isEmpty else {
            return .failure(LoadError(reason: "\(name) lacks \(library.missing.joined(separator: ", "))"))
        }
        return .success(functions)
    }

    /// The address of `symbol`; a placeholder, noted as missing, when the library hasn't it.
    public mutating func symbol(_ symbol: String) -> UnsafeMutableRawPointer {
        if let address = dlsym(handle, symbol) { return address }
        missing.append(symbol)
        return UnsafeMutableRawPointer(bitPattern: 1)!
    }

    /// `symbol` as a C function of type `Function`: a type the library's header declares it with (the shims take
    /// them with `__typeof__`), so the prototype can't be got wrong.
    public mutating func function<Function>(_ symbol: String, as type: Function.Type) -> Function {
        unsafeBitCast(self.symbol(symbol), to: type)
    }
}
