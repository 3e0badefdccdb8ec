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

    func validate() throws {
        if let n = chunkSize, n < 1 { throw ValidationError("--stream-chunks needs a positive number") }
        if emitEach && chunkSize == nil { throw ValidationError("--emit-each needs --stream-chunks") }
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
