#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

// Plain POSIX I/O: input must reach the parser as raw bytes (invalid UTF-8
// included, which the parser replaces itself), and the error message wants
// the system's reason, which Foundation's file APIs paraphrase.

/// Reads a whole file, or standard input for `nil` or `-`. On failure prints
/// `tidemark: cannot read 'FILE': reason` and exits with status 1.
func readInput(_ path: String?) throws -> [UInt8] {
    let name = path ?? "-"
    let fd: Int32
    if name == "-" {
        fd = STDIN_FILENO
    } else {
        fd = open(name, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw cannotRead(name, errno) }
    }
    defer { if fd != STDIN_FILENO { close(fd) } }

    // Regular files tell their size: one allocation, two reads. Pipes and
    // terminals grow the buffer by doubling.
    var info = stat()
    let size = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
    var bytes = [UInt8](repeating: 0, count: max(size + 1, 1 << 16))
    var count = 0
    while true {
        if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
        let (n, error) = bytes.withUnsafeMutableBufferPointer { buffer in
            var n: Int
            repeat {
                n = read(fd, buffer.baseAddress! + count, buffer.count - count)
            } while n < 0 && errno == EINTR
            return (n, n < 0 ? errno : 0)
        }
        if n < 0 { throw cannotRead(name, error) }
        if n == 0 {
            bytes.removeLast(bytes.count - count)
            return bytes
        }
        count += n
    }
}

private func cannotRead(_ name: String, _ code: Int32) -> ExitCode {
    let what = name == "-" ? "standard input" : "'\(name)'"
    printError("tidemark: cannot read \(what): \(String(cString: strerror(code)))")
    return ExitCode.failure
}

/// Writes a message and a newline to standard error (unbuffered, so it
/// interleaves correctly with output already written).
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { StandardOutput.writeAll($0, to: STDERR_FILENO) }
}

/// Output written in large blocks: few system calls for big documents, and
/// bounded memory however large the output grows.
struct StandardOutput {
    /// Flush once this much is buffered.
    static let blockSize = 1 << 16
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(Self.blockSize) }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.blockSize { flush() }
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write($0) }
    }

    mutating func write(utf8 text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    mutating func write(_ byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= Self.blockSize { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBufferPointer { Self.writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `write(2)` until every byte is out. When output is impossible (a
    /// closed pipe, a full disk) there is no one left to tell: exit 1.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32 = STDOUT_FILENO) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glue.write(fd, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                exit(1)
            }
            base += written
            remaining -= written
        }
    }
}

/// The C `write`, named apart from `StandardOutput.write`.
private enum Glue {
    static func write(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, bytes, count)
        #elseif canImport(Musl)
        Musl.write(fd, bytes, count)
        #else
        Glibc.write(fd, bytes, count)
        #endif
    }
}
