import BudgetTime

extension AppManifest {
    /// The wildcard entries of ``permittedTaskIdentifiers`` that permit continued-processing tasks:
    /// those ending in `.*` whose prefix starts with the bundle identifier, such as
    /// `com.example.photos.export.*` for `com.example.photos` [S47].
    var continuedProcessingPatterns: [String] {
        permittedTaskIdentifiers.filter { entry in
            entry.hasSuffix(".*") && (entry.dropLast(1)).hasPrefix(id.rawValue + ".")
        }
    }

    /// The wildcard entry a continued-processing identifier matches, if any: the identifier is the
    /// entry's prefix followed by at least one character, with no `*` of its own.
    func continuedProcessingPattern(matching identifier: String) -> String? {
        guard !identifier.contains("*") else { return nil }
        return continuedProcessingPatterns.first { entry in
            let prefix = entry.dropLast(1)
            return identifier.count > prefix.count && identifier.hasPrefix(prefix)
        }
    }
}
