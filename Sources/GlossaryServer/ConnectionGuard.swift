import Foundation

/// What libmicrohttpd's own limits miss: a total deadline for each request head, a per-address limit that
/// makes room for a newcomer, and streams counted apart.
///
/// MHD's idle timeout restarts with every byte, so a client sending a header byte every few seconds keeps its
/// connection (and its thread) for as long as it likes. The guard gives each connection `headerTimeout` from
/// the moment it opens, or from the end of its previous request, to deliver a whole request line and headers;
/// past that a watchdog thread shuts the socket down and MHD closes the connection.
///
/// One client address holds at most `perAddressLimit` connections that the guard has not shut down. When a
/// new one would exceed that, the guard shuts down the one from that address waiting longest for a request:
/// an idle one (nothing of its next request in) before one part way through a request head. A connection
/// whose request is being answered is never chosen; when every other one is, the newcomer is shut down.
/// So idle and slow connections can't lock an address out, and whoever opens many pushes out only their own.
///
/// It also counts streaming responses apart from requests, admitting at most `streamLimit`, and watches each
/// stream's socket, so a stream whose client has gone is cancelled at once instead of at its next write.
///
/// It knows sockets and keys (MHD's connection pointers), not MHD: `HTTPServer` feeds it from MHD's callbacks.
/// Sockets are only touched under the lock, and MHD closes a connection's socket only after `closed` has
/// returned, so the guard never acts on a descriptor number that has meanwhile been given to someone else.
final class ConnectionGuard: @unchecked Sendable {
    let headerTimeout: TimeInterval
    let perAddressLimit: Int
    let streamLimit: Int

    /// What the guard has done so far, and holds now.
    struct Counts: Equatable {
        var connections = 0
        /// Connections waiting for a request with nothing of it in yet (new, or kept alive after one).
        var idle = 0
        /// Connections part way through a request head.
        var receivingHeads = 0
        var streams = 0
        /// Connections shut down for missing their header deadline.
        var headerTimeouts = 0
        /// Connections shut down because their address was over `perAddressLimit`.
        var overAddressLimit = 0
        /// Streams cancelled because their client hung up.
        var hangUps = 0
    }

    private enum StreamState {
        case active(cancel: @Sendable () -> Void)
        /// Its client hung up; the stream is ending and no longer counts.
        case cancelled
    }

    private enum Phase: Equatable {
        /// Waiting for a request head, due by `deadline`; `started` once its request line is in.
        case awaitingHead(deadline: ContinuousClock.Instant, started: Bool)
        /// Its request head is in: the request is being answered.
        case answering
        /// Shut down by the guard: MHD is closing it, and it no longer counts against its address.
        case shutDown
    }

    private struct Connection {
        let socket: Int32
        /// The client's IP address, as bytes: what `perAddressLimit` counts by.
        let address: [UInt8]
        var phase: Phase
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

    init(headerTimeout: TimeInterval, perAddressLimit: Int, streamLimit: Int) {
        self.headerTimeout = headerTimeout
        self.perAddressLimit = perAddressLimit
        self.streamLimit = streamLimit
    }

    deinit {
        stop()
    }

    var current: Counts {
        lock.withLock {
            var current = counts
            for connection in connections.values {
                if case .awaitingHead(_, let started) = connection.phase {
                    if started { current.receivingHeads += 1 } else { current.idle += 1 }
                }
            }
            return current
        }
    }

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

    /// A connection was accepted from `address`: its first request head is due within `headerTimeout`, and
    /// if its address now holds more than `perAddressLimit`, one of them is shut down.
    func opened(_ key: Int, socket: Int32, address: [UInt8]) {
        lock.withLock {
            counts.connections += 1
            connections[key] = Connection(socket: socket, address: address, phase: awaitingHead(), stream: nil)
            makeRoom(for: key)
        }
    }

    /// A request line is in: the connection is part way through a request head.
    func requestLineReceived(_ key: Int) {
        lock.withLock {
            guard case .awaitingHead(let deadline, _) = connections[key]?.phase else { return }
            connections[key]?.phase = .awaitingHead(deadline: deadline, started: true)
        }
    }

    /// A request's head is complete: no deadline while it is answered.
    func requestStarted(_ key: Int) {
        lock.withLock {
            guard case .awaitingHead = connections[key]?.phase else { return }
            connections[key]?.phase = .answering
        }
    }

    /// A request was answered: the next head on this keep-alive connection is due within `headerTimeout`.
    func requestEnded(_ key: Int) {
        lock.withLock {
            guard let phase = connections[key]?.phase, phase != .shutDown else { return }
            connections[key]?.phase = awaitingHead()
        }
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

    // MARK: Shutting connections down

    /// With the lock held: the phase of a connection whose next request head is due within `headerTimeout`.
    private func awaitingHead() -> Phase {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64((headerTimeout * 1000).rounded(.up))))
        // Deadlines only grow later, so the watchdog needs waking only when it sleeps without one.
        if sleepingUntil.map({ deadline < $0 }) ?? true { poke() }
        return .awaitingHead(deadline: deadline, started: false)
    }

    /// With the lock held: if `newcomer`'s address holds more than `perAddressLimit` connections not shut down,
    /// shuts down the one waiting longest for a request, idle ones first — or the newcomer, if every other one
    /// is being answered. A deadline is `headerTimeout` after the wait began, so the earliest is the longest.
    private func makeRoom(for newcomer: Int) {
        guard let address = connections[newcomer]?.address else { return }
        var held = 0
        var victim: (key: Int, order: (Int, ContinuousClock.Instant))?
        for (key, connection) in connections where connection.address == address {
            switch connection.phase {
            case .shutDown: continue
            case .answering: held += 1
            case .awaitingHead(let deadline, let started):
                held += 1
                // Idle (0) before part way through a head (1), then the earliest deadline.
                let order = (started ? 1 : 0, deadline)
                if key != newcomer, victim.map({ order < $0.order }) ?? true { victim = (key, order) }
            }
        }
        guard held > perAddressLimit else { return }
        shutDown(victim?.key ?? newcomer)
        counts.overAddressLimit += 1
    }

    /// With the lock held: MHD's thread for `key` wakes to end of input and closes the connection.
    private func shutDown(_ key: Int) {
        guard let socket = connections[key]?.socket else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        connections[key]?.phase = .shutDown
    }

    // MARK: The watchdog

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
                if case .awaitingHead(let deadline, _) = connection.phase {
                    if deadline <= now {
                        shutDown(key)
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
