import ArgumentParser
import Tidemark

/// `--stream-chunks N [--emit-each]`: feed the input through `MarkdownStream`
/// N bytes at a time, the way a chat app receives a model's answer.
struct StreamFlags: ParsableArguments {
    @Option(name: .customLong("stream-chunks"),
            help: ArgumentHelp("Feed the input through the streaming parser this many bytes at a time.", valueName: "n"))
    var chunkSize: Int?

    @Flag(name: .customLong("emit-each"),
          help: "With --stream-chunks: print the whole document after every append and after finish(), each followed by a NUL byte.")
    var emitEach = false

    @Flag(name: .customLong("batch-prefixes"),
          help: ArgumentHelp("With --stream-chunks n: stream nothing; print what --emit-each must print, by batch parses: the first n, 2n, … bytes, then the whole input again, each followed by a NUL byte (the oracle of the outside checks)."))
    var batchPrefixes = false

    func validate() throws {
        if let n = chunkSize, n < 1 { throw ValidationError("--stream-chunks needs a positive number") }
        if emitEach && chunkSize == nil { throw ValidationError("--emit-each needs --stream-chunks") }
        if batchPrefixes && chunkSize == nil { throw ValidationError("--batch-prefixes needs --stream-chunks") }
        if batchPrefixes && emitEach { throw ValidationError("--batch-prefixes and --emit-each exclude each other") }
    }

    /// What `--emit-each` prints a document for, parsed in one batch each:
    /// the bytes after every append (the first n, 2n, … bytes, the last
    /// prefix the whole input), then the whole input again (after
    /// `finish()`). Nothing of the streaming parser is used: comparing the
    /// two outputs byte for byte checks every emission.
    func batchPrefixes(_ bytes: [UInt8], options: ParseOptions, each: (Document) -> Void) {
        let n = chunkSize ?? max(1, bytes.count)
        var at = 0
        while at < bytes.count {
            at = min(bytes.count, at + n)
            each(Document(parsing: bytes[0..<at], options: options))
        }
        each(Document(parsing: bytes, options: options))
    }

    /// Streams `bytes`; calls `each` with every update (including the final
    /// one) and returns the final document. Each update is held until the
    /// next append has returned, as a UI holds the one it shows (the stream
    /// then writes to a storage no reader holds: the checks from outside
    /// cover that path too).
    func stream(_ bytes: [UInt8], options: ParseOptions, each: (StreamUpdate) -> Void) -> Document {
        let n = chunkSize ?? max(1, bytes.count)
        var stream = MarkdownStream(options: options)
        var shown: StreamUpdate? = nil
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + n)
            let update = withExtendedLifetime(shown) { stream.append(bytes: bytes[at..<end]) }
            each(update)
            shown = update
            at = end
        }
        let final = withExtendedLifetime(shown) { stream.finish() }
        each(final)
        return final.document
    }
}
