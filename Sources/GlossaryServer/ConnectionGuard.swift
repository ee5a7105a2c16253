import Foundation

/// What libmicrohttpd's own limits miss: a total deadline for each request head, and streams counted apart.
///
/// MHD's idle timeout restarts with every byte, so a client sending a header byte every few seconds keeps its
/// connection (and its thread) for as long as it likes. The guard gives each connection `headerTimeout` from
/// the moment it opens, or from the end of its previous request, to deliver a whole request line and headers;
/// past that a watchdog thread shuts the socket down and MHD closes the connection. It also counts streaming
/// responses apart from requests, admitting at most `streamLimit`, and watches each stream's socket, so a
/// stream whose client has gone is cancelled at once instead of at its next write.
///
/// It knows sockets and keys (MHD's connection pointers), not MHD: `HTTPServer` feeds it from MHD's callbacks.
/// Sockets are only touched under the lock, and MHD closes a connection's socket only after `closed` has
/// returned, so the guard never acts on a descriptor number that has meanwhile been given to someone else.
final class ConnectionGuard: @unchecked Sendable {
    let headerTimeout: TimeInterval
    let streamLimit: Int

    /// What the guard has done so far, and holds now.
    struct Counts: Equatable {
        var connections = 0
        var streams = 0
        /// Connections shut down for missing their header deadline.
        var headerTimeouts = 0
        /// Streams cancelled because their client hung up.
        var hangUps = 0
    }

    private enum StreamState {
        case active(cancel: @Sendable () -> Void)
        /// Its client hung up; the stream is ending and no longer counts.
        case cancelled
    }

    private struct Connection {
        var socket: Int32
        /// When the request head must be in; nil while a request is being answered.
        var headerDeadline: ContinuousClock.Instant?
        var stream: StreamState?
    }

    private let lock = NSLock()
    private var connections: [Int: Connection] = [:]
    private var counts = Counts()
    /// The deadline the watchdog sleeps until (nil: none, it waits for a wake-up).
    private var sleepingUntil: ContinuousClock.Instant?
    private var running = false
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private let finished = DispatchSemaphore(value: 0)

    /// `POLLRDHUP` (Linux): the peer closed its end. Glibc's Swift module leaves out this GNU extension.
    private static let readHangUp: Int16 = 0x2000
    /// A hang-up shows as the peer's end closed, or as a hang-up or error on the socket.
    private static let hangUpEvents = readHangUp | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)

    init(headerTimeout: TimeInterval, streamLimit: Int) {
        self.headerTimeout = headerTimeout
        self.streamLimit = streamLimit
    }

    deinit {
        stop()
    }

    var current: Counts { lock.withLock { counts } }

    /// Starts the watchdog thread; false if its wake-up pipe can't be made.
    func start() -> Bool {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        lock.withLock {
            wake = (ends[0], ends[1])
            running = true
        }
        let thread = Thread { [self] in watch() }
        thread.name = "glossary connection guard"
        thread.start()
        return true
    }

    /// Stops the watchdog thread and waits for it. Connections still open are left to MHD.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        poke()
        finished.wait()
        let ends = lock.withLock {
            defer { wake = (-1, -1) }
            return wake
        }
        close(ends.read)
        close(ends.write)
    }

    // MARK: What MHD reports (through HTTPServer)

    /// A connection was accepted: its first request head is due within `headerTimeout`.
    func opened(_ key: Int, socket: Int32) {
        lock.withLock {
            counts.connections += 1
            connections[key] = Connection(socket: socket, headerDeadline: nil, stream: nil)
            setDeadline(key)
        }
    }

    /// A request's head is complete: no deadline while it is answered.
    func requestStarted(_ key: Int) {
        lock.withLock { connections[key]?.headerDeadline = nil }
    }

    /// A request was answered: the next head on this keep-alive connection is due within `headerTimeout`.
    func requestEnded(_ key: Int) {
        lock.withLock { setDeadline(key) }
    }

    func closed(_ key: Int) {
        lock.withLock {
            guard let connection = connections.removeValue(forKey: key) else { return }
            counts.connections -= 1
            if case .active = connection.stream {
                counts.streams -= 1
                poke()
            }
        }
    }

    /// Counts a streaming response on `key` unless `streamLimit` are already open; `cancel` is called (from
    /// the watchdog thread) if its client hangs up.
    func admitStream(_ key: Int, cancel: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard connections[key] != nil else { return true }  // never happens: MHD reports every connection first
            guard counts.streams < streamLimit else { return false }
            counts.streams += 1
            connections[key]?.stream = .active(cancel: cancel)
            poke()
            return true
        }
    }

    /// The streaming response on `key` is over (ended, or its client gone).
    func streamEnded(_ key: Int) {
        lock.withLock {
            if case .active = connections[key]?.stream { counts.streams -= 1 }
            connections[key]?.stream = nil
        }
    }

    // MARK: The watchdog

    /// Called with the lock held.
    private func setDeadline(_ key: Int) {
        guard connections[key] != nil else { return }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64((headerTimeout * 1000).rounded(.up))))
        connections[key]?.headerDeadline = deadline
        // Deadlines only grow later, so the watchdog needs waking only when it sleeps without one.
        if sleepingUntil.map({ deadline < $0 }) ?? true { poke() }
    }

    /// Wakes the watchdog (it re-reads the connections); never blocks.
    private func poke() {
        var byte: UInt8 = 1
        if wake.write >= 0 { _ = write(wake.write, &byte, 1) }
    }

    private func watch() {
        lock.lock()
        while running {
            let now = ContinuousClock.now
            var earliest: ContinuousClock.Instant?
            var streams: [(key: Int, socket: Int32)] = []
            for key in Array(connections.keys) {
                guard let connection = connections[key] else { continue }
                if let deadline = connection.headerDeadline {
                    if deadline <= now {
                        // MHD's thread for this connection wakes to end of input and closes it.
                        shutdown(connection.socket, Int32(SHUT_RDWR))
                        connections[key]?.headerDeadline = nil
                        counts.headerTimeouts += 1
                    } else {
                        earliest = min(earliest ?? deadline, deadline)
                    }
                }
                if case .active = connection.stream { streams.append((key, connection.socket)) }
            }
            sleepingUntil = earliest
            let wakeFD = wake.read
            lock.unlock()

            var descriptors = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            descriptors += streams.map { pollfd(fd: $0.socket, events: Self.readHangUp, revents: 0) }
            let timeout = earliest.map { Self.milliseconds(until: $0) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if descriptors[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 256)
                while read(wakeFD, &sink, sink.count) > 0 {}
            }
            var cancels: [@Sendable () -> Void] = []
            lock.lock()
            if ready > 0 {
                for (index, stream) in streams.enumerated() where descriptors[index + 1].revents & Self.hangUpEvents != 0 {
                    if let cancel = hungUp(stream.key) { cancels.append(cancel) }
                }
            }
            if !cancels.isEmpty {
                lock.unlock()
                for cancel in cancels { cancel() }
                lock.lock()
            }
        }
        lock.unlock()
        finished.signal()
    }

    /// With the lock held: if the stream on `key` really has lost its client, marks it cancelled and returns
    /// how to cancel it. The poll result may be about a socket closed meanwhile, so the one `key` holds now
    /// is asked again.
    private func hungUp(_ key: Int) -> (@Sendable () -> Void)? {
        guard let connection = connections[key], case .active(let cancel) = connection.stream else { return nil }
        var now = pollfd(fd: connection.socket, events: Self.readHangUp, revents: 0)
        guard poll(&now, 1, 0) == 1, now.revents & Self.hangUpEvents != 0 else { return nil }
        connections[key]?.stream = .cancelled
        counts.streams -= 1
        counts.hangUps += 1
        return cancel
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
