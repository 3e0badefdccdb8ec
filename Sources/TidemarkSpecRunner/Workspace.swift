import ArgumentParser
import Foundation

/// Where the fixtures and specs live, and the small file helpers the two
/// subcommands share.
struct Workspace {
    /// The fixtures directory (`Fixtures/`).
    let fixtures: URL
    /// The package root: the fixtures directory's parent; `spec/` is there.
    var root: URL { fixtures.deletingLastPathComponent() }
    var specDirectory: URL { root.appendingPathComponent("spec", isDirectory: true) }
    var expectedDifferencesFile: URL { fixtures.appendingPathComponent("expected-differences.txt") }

    /// `--fixtures DIR` if given, else `./Fixtures`, else the first
    /// `Fixtures/` found walking up from the current directory (so the runner
    /// works from any subdirectory of the package).
    init(fixturesOption: String?) throws {
        let fm = FileManager.default
        if let fixturesOption {
            guard Self.isDirectory(fixturesOption) else {
                throw usageError("fixtures directory '\(fixturesOption)' does not exist")
            }
            fixtures = URL(fileURLWithPath: fixturesOption, isDirectory: true).standardizedFileURL
            return
        }
        var directory = URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true).standardizedFileURL
        while true {
            let candidate = directory.appendingPathComponent("Fixtures", isDirectory: true)
            if Self.isDirectory(candidate.path) {
                fixtures = candidate
                return
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        throw usageError("no Fixtures directory here or above; pass --fixtures DIR")
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Files of a directory with an extension, sorted by name.
    static func files(in directory: URL, withExtension ext: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// A path relative to the package root for messages, when it is inside.
    func display(_ url: URL) -> String {
        let rootPath = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(rootPath + "/") ? String(path.dropFirst(rootPath.count + 1)) : path
    }
}

/// Prints a line on standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// A problem with the arguments found while running: reported as one line
/// (ArgumentParser would append the root command's usage, which does not
/// help with a wrong file name), exit status 64 like a usage error.
func usageError(_ message: String) -> ExitCode {
    printError("tidemark-spec: " + message)
    return ExitCode.validationFailure
}
