import Foundation

/// The command line: `--svg PATH`, `--trace`.
struct Options {
    var trace = false
    var svgPath: String?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("NewsFetcher: \(message)\nusage: NewsFetcher [--svg PATH] [--trace]\n".utf8))
    exit(2)
}
