import Foundation

// Shared entry points of the fuzz targets (compiled by Benchmarks/fuzz.sh together with one
// target file, which defines `FuzzTarget.run`). Under libFuzzer (`-D FUZZING`) libFuzzer owns
// `main`; otherwise a replay `main` runs the target once on every file named on the command line.

/// libFuzzer's entry point: one input per call; a failed check aborts (reported as a crash).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.run(data)
    return 0
}

/// Stops the process with a message naming the broken property (libFuzzer saves the input).
func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz check failed: \(message)\n".utf8))
    abort()
}

#if !FUZZING
/// Replays saved inputs (crash files or a corpus directory) without libFuzzer.
@main
enum FuzzReplay {
    static func main() {
        var paths: [String] = []
        for argument in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                paths += names.sorted().map { argument + "/" + $0 }
            } else {
                paths.append(argument)
            }
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            FuzzTarget.run(data)
        }
        print("replayed \(paths.count) inputs, no failure")
    }
}
#endif
