import Foundation
import Testing
@testable import Tidemark

// MARK: - A clock the test moves

/// A clock whose time moves only when the test calls `advance(by:)`.
/// Sleepers are resumed by `advance` once their deadline is reached; the
/// test can wait (without sleeping in real time) until a given number of
/// tasks sleep on it.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(id: Int, deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = []
    private var cancelled: Set<Int> = []
    private var nextID = 0
    private var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on this clock.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { () -> Int in nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                var ready: [CheckedContinuation<Void, Never>] = []
                let outcome: Result<Void, any Error>? = lock.withLock {
                    if cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append((id, deadline, continuation))
                    ready = takeCountWaiters()
                    return nil
                }
                ready.forEach { $0.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                if let k = sleepers.firstIndex(where: { $0.id == id }) { return sleepers.remove(at: k).continuation }
                cancelled.insert(id)
                return nil
            }
            sleeper?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has come.
    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }.map(\.continuation)
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        due.forEach { $0.resume() }
    }

    /// Returns once at least `count` tasks sleep on this clock.
    func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if sleepers.count >= count { return true }
                countWaiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Under the lock: the count waiters now satisfied.
    private func takeCountWaiters() -> [CheckedContinuation<Void, Never>] {
        let ready = countWaiters.filter { $0.count <= sleepers.count }.map(\.continuation)
        countWaiters.removeAll { $0.count <= sleepers.count }
        return ready
    }
}

// MARK: - A source the test feeds

/// An `AsyncSequence` of chunks the test sends one by one. It records how
/// its reader pulls: the test can wait until every chunk sent so far has
/// been taken and the reader waits for more, or until the reader's pending
/// `next()` was cancelled.
final class ScriptedSource<Chunk: Sendable>: AsyncSequence, Sendable {
    typealias Element = Chunk

    actor State {
        var queue: [Chunk] = []
        var finished = false
        var failure: (any Error)? = nil
        var reader: CheckedContinuation<Chunk?, any Error>? = nil
        var pulls = 0
        var wasCancelled = false
        enum Condition: Sendable { case drained, cancelled }
        var conditionWaiters: [(condition: Condition, continuation: CheckedContinuation<Void, Never>)] = []

        func send(_ chunk: Chunk) {
            if let r = reader {
                reader = nil
                r.resume(returning: chunk)
            } else {
                queue.append(chunk)
            }
            check()
        }

        func finish(throwing error: (any Error)? = nil) {
            finished = true
            failure = error
            if let r = reader {
                reader = nil
                if let error { r.resume(throwing: error) } else { r.resume(returning: nil) }
            }
            check()
        }

        func next() async throws -> Chunk? {
            pulls += 1
            if wasCancelled { return nil }
            if !queue.isEmpty { return queue.removeFirst() }
            if finished {
                if let failure { throw failure }
                return nil
            }
            let chunk = try await withCheckedThrowingContinuation { continuation in
                reader = continuation
                check()
            }
            return chunk
        }

        func cancelRead() {
            wasCancelled = true
            if let r = reader {
                reader = nil
                r.resume(returning: nil)
            }
            check()
        }

        /// `drained`: the reader took everything sent and waits for more.
        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .drained: return queue.isEmpty && reader != nil
            case .cancelled: return wasCancelled
            }
        }

        func wait(until condition: Condition) async {
            if holds(condition) { return }
            await withCheckedContinuation { conditionWaiters.append((condition, $0)) }
        }

        private func check() {
            let ready = conditionWaiters.filter { holds($0.condition) }
            conditionWaiters.removeAll { holds($0.condition) }
            ready.forEach { $0.continuation.resume() }
        }
    }

    let state = State()

    struct Iterator: AsyncIteratorProtocol {
        let state: State
        mutating func next() async throws -> Chunk? {
            let state = self.state
            return try await withTaskCancellationHandler {
                try await state.next()
            } onCancel: {
                Task { await state.cancelRead() }
            }
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(state: state) }

    func send(_ chunk: Chunk) async { await state.send(chunk) }
    func finish(throwing error: (any Error)? = nil) async { await state.finish(throwing: error) }
    func waitUntilDrained() async { await state.wait(until: .drained) }
    func waitUntilCancelled() async { await state.wait(until: .cancelled) }
    var pulls: Int { get async { await state.pulls } }
}

struct SourceFailure: Error, Equatable {}

// MARK: - Tests

/// The async front end (`markdownUpdates`), driven by a scripted source and
/// a manual clock: no test waits for real time.
@Suite struct AsyncStreamTests {
    @Test func newlineFlushesWithoutWaitingForTheTimer() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        var updates = source.markdownUpdates(clock: clock).makeAsyncIterator()
        await source.send("Hello **wor")
        await source.send("ld**\n")
        let snapshot = try #require(try await updates.next())
        #expect(snapshot.document.sourceText == "Hello **world**\n")
        #expect(snapshot.document == Document(parsing: "Hello **world**\n"))
        #expect(snapshot.inserted.count == 1 && snapshot.changed.isEmpty && snapshot.removed.isEmpty)
        #expect(!snapshot.isFinal)
        #expect(clock.now.offset == .zero)
    }

    @Test func timerFlushesAfterTheIntervalSinceTheFirstAppend() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        let updates = source.markdownUpdates(interval: .milliseconds(50), clock: clock)
        await source.send("partial **bo")
        let consumer = Task {
            var it = updates.makeAsyncIterator()
            return try await it.next()
        }
        // The timer started at the append; nothing is due before 50 ms.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(49))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let snapshot = try #require(try await consumer.value)
        #expect(snapshot.document.sourceText == "partial **bo")
        #expect(snapshot.provisionalDocument.html() == "<p>partial <strong>bo</strong></p>\n")
        #expect(snapshot.document.html() == "<p>partial **bo</p>\n")
    }

    @Test func aSlowConsumerGetsOneSnapshotWithTheMergedDiff() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        var updates = source.markdownUpdates(clock: clock).makeAsyncIterator()
        await source.send("# Title\n")
        let first = try #require(try await updates.next())
        #expect(first.inserted.count == 1)

        // The consumer is busy: chunks keep coming and are appended.
        let chunks = ["para", "graph one\n", "\n- item\n\n",
                      "[a]:",            // a paragraph for now…
                      " /u\n"]           // …that becomes a definition: gone
        for chunk in chunks { await source.send(chunk) }
        await source.waitUntilDrained()

        let merged = try #require(try await updates.next())
        let text = "# Title\nparagraph one\n\n- item\n\n[a]: /u\n"
        #expect(merged.document == Document(parsing: text))
        #expect(merged.update.blockCount == 3)
        // One snapshot for five appends, its diff against the previous
        // snapshot: new blocks still present are inserted, blocks gone are
        // removed, and the paragraph that came and went in between is
        // reported neither way.
        let before = Set(first.update.blockIDs), now = Set(merged.update.blockIDs)
        #expect(Set(merged.inserted) == now.subtracting(before))
        #expect(merged.inserted.count == 2)
        #expect(Set(merged.removed) == before.subtracting(now))
        // Changed: the union of what the five updates reported changed, for
        // blocks in both snapshots (replayed on a plain stream).
        var replay = MarkdownStream()
        replay.append("# Title\n")
        var reported: Set<BlockID> = []
        for chunk in chunks { reported.formUnion(replay.append(chunk).changed) }
        #expect(Set(merged.changed) == reported.intersection(before).intersection(now))
        #expect(Set(merged.changedBlocks.map(\.kind)).isSuperset(of: [.paragraph, .list]))

        // Nothing stale was queued: the next snapshot is the latest state.
        // (The timer runs from the append, whether or not anyone waits.)
        await source.send("more")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        let latest = try #require(try await updates.next())
        #expect(latest.document.sourceText == text + "more")
        #expect(Set(latest.inserted) == Set(latest.update.blockIDs).subtracting(now))
        #expect(latest.inserted.count == 1)
    }

    @Test func theEndOfTheSourceFlushesAFinalSnapshot() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        var updates = source.markdownUpdates(clock: clock).makeAsyncIterator()
        await source.send("Last **line")
        await source.finish()
        let final = try #require(try await updates.next())
        #expect(final.isFinal)
        #expect(final.document == Document(parsing: "Last **line"))
        #expect(final.provisionalDocument == final.document)
        #expect(final.settledCount == final.update.blockCount)
        #expect(try await updates.next() == nil)
        #expect(try await updates.next() == nil)
    }

    @Test func cancellingTheConsumerStopsReadingTheSource() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        let updates = source.markdownUpdates(clock: clock)
        let consumer = Task {
            var count = 0
            for try await _ in updates { count += 1 }
            return count
        }
        await source.send("one\n")
        await source.waitUntilDrained()
        consumer.cancel()
        // The reader's pending pull is cancelled, and it pulls no more.
        await source.waitUntilCancelled()
        _ = try await consumer.value
        let pulls = await source.pulls
        await source.send("two\n")
        await source.finish()
        #expect(await source.pulls == pulls)
    }

    @Test func leavingTheLoopStopsReadingTheSource() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        await source.send("one\n")
        for try await snapshot in source.markdownUpdates(clock: clock) {
            #expect(snapshot.document.sourceText == "one\n")
            break
        }
        await source.waitUntilCancelled()
    }

    @Test func errorsOfTheSourceAreThrown() async throws {
        let source = ScriptedSource<String>()
        let clock = ManualClock()
        var updates = source.markdownUpdates(clock: clock).makeAsyncIterator()
        await source.send("a\n")
        _ = try await updates.next()
        await source.finish(throwing: SourceFailure())
        await #expect(throws: SourceFailure.self) { try await updates.next() }
        #expect(try await updates.next() == nil)
    }

    /// Whatever the chunking and whenever the consumer asks, every snapshot
    /// is exact and the final one is the batch parse of the whole text.
    @Test(arguments: [1, 3, 8, 64])
    func exactnessWithByteChunks(_ size: Int) async throws {
        let text = """
            # Título

            Some **bold** and `code` — ünïcödé 😀, a [link](https://example.com).\r\n\r\n\
            | a | b |
            | - | - |
            | 1 | 2 |

            ```swift
            let x = 1
            ```
            Tail *emph
            """
        let bytes = Array(text.utf8)
        let source = ScriptedSource<[UInt8]>()
        let clock = ManualClock()
        let updates = source.markdownUpdates(clock: clock)
        let consumer = Task {
            var snapshots: [MarkdownSnapshot] = []
            for try await s in updates { snapshots.append(s) }
            return snapshots
        }
        var at = 0
        while at < bytes.count {
            await source.send(Array(bytes[at..<min(bytes.count, at + size)]))
            at += size
        }
        await source.finish()
        let snapshots = try await consumer.value
        let final = try #require(snapshots.last)
        #expect(final.isFinal)
        #expect(final.document == Document(parsing: text))
        #expect(snapshots.dropLast().allSatisfy { !$0.isFinal })
        for s in snapshots {
            #expect(s.document == Document(parsing: s.document.source))
        }
        // Every block of the final document was reported inserted once.
        let reported = snapshots.flatMap(\.inserted)
        #expect(Set(final.update.blockIDs).isSubset(of: Set(reported)))
    }
}
