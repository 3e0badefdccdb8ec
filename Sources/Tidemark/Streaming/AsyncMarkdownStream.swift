/// The async front end for apps: an `AsyncSequence` of text chunks in,
/// coalesced Markdown snapshots out.
///
/// ```swift
/// for try await snapshot in tokens.markdownUpdates() {
///     render(snapshot.provisionalDocument, redrawing: snapshot.changed + snapshot.inserted)
/// }
/// ```
///
/// Coalescing: every chunk is appended to a `MarkdownStream` as soon as it
/// arrives. A snapshot becomes due when the text appended since the last
/// snapshot contains a line ending, or when `interval` has passed since the
/// first of those appends, whichever comes first; and once more when the
/// source ends (`finish()`, `isFinal`), after which the sequence ends.
/// Nothing is queued: while the consumer is still handling a snapshot,
/// chunks keep being appended and their diffs merged, and its next call to
/// `next()` gets one snapshot of the latest state — the union of everything
/// changed, inserted and removed since the snapshot before.
///
/// Design: the source is read by one task, started when iteration starts,
/// that owns the source's iterator (so the iterator never crosses a task
/// boundary; the source itself must be `Sendable`) and appends each chunk
/// to an actor holding the stream and the merged diff. `next()` waits on
/// that actor until a snapshot is due; the interval is measured by a timer
/// task on the given clock, started at the first append after a snapshot
/// and cancelled when the snapshot is taken. Cancelling the consuming task
/// (or dropping the iterator) cancels the reading task, which stops pulling
/// from the source, and `next()` returns `nil`. An error thrown by the
/// source is thrown by the next `next()`.
public struct MarkdownUpdates<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where C.Duration == Duration {
    public typealias Element = MarkdownSnapshot

    let base: Base
    let options: ParseOptions
    let interval: Duration
    let clock: C
    /// Turns a source element into a chunk, on the reading task.
    let chunk: @Sendable (Base.Element) -> MarkdownChunk

    public func makeAsyncIterator() -> Iterator {
        Iterator(driver: Driver(self))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let driver: Driver

        public mutating func next() async throws -> MarkdownSnapshot? {
            let coalescer = driver.coalescer
            let reader = driver.reader
            let id = await coalescer.newWaiterID()
            let event = await withTaskCancellationHandler {
                await coalescer.nextEvent(waiter: id)
            } onCancel: {
                reader.cancel()
                Task { await coalescer.cancelWaiter(id) }
            }
            if Task.isCancelled { return nil }
            switch event {
            case .snapshot(let snapshot): return snapshot
            case .end: return nil
            case .failure(let error): throw error
            }
        }
    }

    /// Owns the reading task; dropping the iterator cancels it.
    final class Driver: Sendable {
        let coalescer: Coalescer<C>
        let reader: Task<Void, Never>

        init(_ updates: MarkdownUpdates) {
            let coalescer = Coalescer(options: updates.options, interval: updates.interval, clock: updates.clock)
            self.coalescer = coalescer
            let base = updates.base
            let chunk = updates.chunk
            reader = Task {
                do {
                    for try await element in base {
                        if Task.isCancelled { break }
                        await coalescer.append(chunk(element))
                    }
                    await coalescer.end(failure: nil, cancelled: Task.isCancelled)
                } catch {
                    await coalescer.end(failure: error, cancelled: Task.isCancelled)
                }
            }
        }

        deinit { reader.cancel() }
    }
}

/// A chunk of input for `MarkdownUpdates`.
enum MarkdownChunk: Sendable {
    case text(String)
    case bytes([UInt8])

    var containsLineEnding: Bool {
        switch self {
        case .text(let s): return s.utf8.contains { $0 == 0x0A || $0 == 0x0D }
        case .bytes(let b): return b.contains { $0 == 0x0A || $0 == 0x0D }
        }
    }
}

/// One element of `MarkdownUpdates`: the state of the stream when the
/// snapshot was taken and what changed since the previous snapshot.
public struct MarkdownSnapshot: Sendable {
    /// The stream's latest update (exact document, block ids, settled count).
    public let update: StreamUpdate
    /// What to display (spec/streaming.md): the exact document with its
    /// unsettled end repaired; equal to `document` in the final snapshot.
    public let provisionalDocument: Document
    /// Top-level blocks changed since the previous snapshot (in the order
    /// first reported), not counting those in `inserted`.
    public let changed: [BlockID]
    /// Top-level blocks new since the previous snapshot and still present.
    public let inserted: [BlockID]
    /// Top-level blocks the previous snapshot had that are gone.
    public let removed: [BlockID]

    /// The exact document: equal to the batch parse of the text so far.
    public var document: Document { update.document }
    /// Top-level blocks `0..<settledCount` are settled.
    public var settledCount: Int { update.settledCount }
    /// Whether this is the snapshot after the source ended.
    public var isFinal: Bool { update.isFinal }

    /// The changed and inserted top-level blocks, in document order.
    public var changedBlocks: ChangedBlocks {
        let wanted = Set(changed).union(inserted)
        let (ids, starts) = (update.blockIDs, update.blockNodeIndices)
        let found = ids.indices.filter { wanted.contains(ids[$0]) }.map { starts[$0] }
        return ChangedBlocks(document: update.document, one: -1, many: found)
    }
}

extension AsyncSequence where Self: Sendable, Element == String {
    /// Coalesced Markdown snapshots of this sequence of text chunks: at a
    /// line ending or after `interval`, whichever comes first, and a final
    /// one when the sequence ends (see `MarkdownUpdates`).
    public func markdownUpdates<C: Clock>(
        options: ParseOptions = .default, interval: Duration = .milliseconds(50), clock: C
    ) -> MarkdownUpdates<Self, C> where C.Duration == Duration {
        MarkdownUpdates(base: self, options: options, interval: interval, clock: clock, chunk: { .text($0) })
    }

    /// Coalesced Markdown snapshots, timed by the continuous clock.
    public func markdownUpdates(
        options: ParseOptions = .default, interval: Duration = .milliseconds(50)
    ) -> MarkdownUpdates<Self, ContinuousClock> {
        markdownUpdates(options: options, interval: interval, clock: ContinuousClock())
    }
}

extension AsyncSequence where Self: Sendable, Element == [UInt8] {
    /// Coalesced Markdown snapshots of this sequence of UTF-8 chunks (a
    /// chunk may split a UTF-8 sequence or a CR LF pair).
    public func markdownUpdates<C: Clock>(
        options: ParseOptions = .default, interval: Duration = .milliseconds(50), clock: C
    ) -> MarkdownUpdates<Self, C> where C.Duration == Duration {
        MarkdownUpdates(base: self, options: options, interval: interval, clock: clock, chunk: { .bytes($0) })
    }

    /// Coalesced Markdown snapshots, timed by the continuous clock.
    public func markdownUpdates(
        options: ParseOptions = .default, interval: Duration = .milliseconds(50)
    ) -> MarkdownUpdates<Self, ContinuousClock> {
        markdownUpdates(options: options, interval: interval, clock: ContinuousClock())
    }
}

/// The state shared by the reading task, the timer and the consumer.
actor Coalescer<C: Clock> where C.Duration == Duration {
    enum Event: Sendable {
        case snapshot(MarkdownSnapshot)
        case end
        case failure(any Error)
    }

    private var stream: MarkdownStream
    private let interval: Duration
    private let clock: C

    // Since the last snapshot.
    private var pending = false
    private var due = false
    private var changed: [BlockID] = []
    private var inserted: [BlockID] = []
    private var removed: [BlockID] = []
    private var timer: Task<Void, Never>? = nil
    private var timerGeneration = 0

    private var ended = false
    private var failure: (any Error)? = nil
    private var delivered = false

    // The one consumer waiting in `nextEvent`, and waiters cancelled before
    // they started waiting.
    private var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)? = nil
    private var cancelledWaiters: Set<Int> = []
    private var nextWaiterID = 0

    init(options: ParseOptions, interval: Duration, clock: C) {
        stream = MarkdownStream(options: options)
        self.interval = interval
        self.clock = clock
    }

    // MARK: The reading task

    func append(_ chunk: MarkdownChunk) {
        guard !ended else { return }
        let update: StreamUpdate
        switch chunk {
        case .text(let s): update = stream.append(s)
        case .bytes(let b): update = stream.append(bytes: b)
        }
        merge(update)
        if !pending {
            pending = true
            startTimer()
        }
        if chunk.containsLineEnding { markDue() }
    }

    func end(failure error: (any Error)?, cancelled: Bool) {
        guard !ended else { return }
        ended = true
        timer?.cancel()
        timer = nil
        if let error {
            failure = error
        } else if !cancelled {
            merge(stream.finish())
            pending = true
        }
        markDue()
    }

    private func merge(_ u: StreamUpdate) {
        for id in u.removed {
            if let k = inserted.firstIndex(of: id) {
                inserted.remove(at: k)          // came and went between two snapshots
            } else {
                if let k = changed.firstIndex(of: id) { changed.remove(at: k) }
                if !removed.contains(id) { removed.append(id) }
            }
        }
        for id in u.inserted where !inserted.contains(id) { inserted.append(id) }
        for id in u.changed where !inserted.contains(id) && !changed.contains(id) { changed.append(id) }
    }

    // MARK: The timer

    private func startTimer() {
        timerGeneration += 1
        let generation = timerGeneration
        let deadline = clock.now.advanced(by: interval)
        let clock = self.clock
        // The task is isolated to this actor (it captures `self`); the
        // sleep suspends it without holding the actor.
        timer = Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            self.timerFired(generation)
        }
    }

    private func timerFired(_ generation: Int) {
        guard generation == timerGeneration, pending else { return }
        markDue()
    }

    private func markDue() {
        due = true
        if let w = waiter {
            waiter = nil
            w.continuation.resume()
        }
    }

    // MARK: The consumer

    func newWaiterID() -> Int {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Waits until a snapshot is due (or the stream ended) and takes it.
    func nextEvent(waiter id: Int) async -> Event {
        while true {
            if cancelledWaiters.remove(id) != nil { return .end }
            if let failure {
                if delivered { return .end }
                delivered = true
                return .failure(failure)
            }
            if due && pending { return .snapshot(takeSnapshot()) }
            if ended { return .end }
            await withCheckedContinuation { continuation in
                waiter = (id, continuation)
            }
        }
    }

    func cancelWaiter(_ id: Int) {
        if let w = waiter, w.id == id {
            waiter = nil
            cancelledWaiters.insert(id)
            w.continuation.resume()
        } else {
            cancelledWaiters.insert(id)
        }
    }

    private func takeSnapshot() -> MarkdownSnapshot {
        let update = stream.lastUpdate
        let snapshot = MarkdownSnapshot(update: update, provisionalDocument: stream.provisionalDocument,
                                        changed: changed, inserted: inserted, removed: removed)
        changed = []
        inserted = []
        removed = []
        pending = false
        due = false
        timer?.cancel()
        timer = nil
        timerGeneration += 1
        return snapshot
    }
}
