/// The bounds ``AppManifest/init(plistData:file:)`` holds every Info.plist to, checked by our own
/// code before Foundation's parser sees the bytes.
///
/// Foundation's property-list parsers recurse once per level of nesting and build every value, so a
/// crafted file of a few hundred kilobytes can overflow the stack (about 10,000 nested arrays) or keep
/// the decoder busy for seconds (millions of references). A real Info.plist is a few kilobytes, a
/// few hundred values, and five or six levels deep; each limit below is orders of magnitude above
/// that and far below what hurts:
///
/// | Limit | Value | A real Info.plist | Refused with |
/// |---|---|---|---|
/// | ``maximumBytes`` | 4 MiB | 1–50 KB | ``InfoPlistError/Problem/tooLarge(bytes:limit:)`` |
/// | ``maximumDepth`` | 128 levels | 3–6 | ``InfoPlistError/Problem/nestedTooDeep(limit:location:)`` |
/// | ``maximumObjects`` | 100,000 | 50–1,000 | ``InfoPlistError/Problem/tooManyObjects(limit:)`` |
///
/// A namespace with no cases: it is never a value, so it has nothing to grow.
public enum InfoPlistLimits {
    /// The largest file read: 4 MiB (4,194,304 bytes).
    ///
    /// The largest Info.plists (apps with hundreds of URL schemes, document types or localised
    /// strings) stay under 200 KB, twenty times less. The cap keeps a wrong file (a video, a log)
    /// from being read whole, and bounds every linear pass over the bytes, Foundation's included.
    /// ``AppManifest/init(contentsOfInfoPlist:)`` reads at most one byte more than this.
    public static let maximumBytes = 4 * 1024 * 1024

    /// The deepest nesting of values: 128. The root is level 1, a value in the root dictionary level 2
    /// (`UIBackgroundModes`), a string in that array level 3.
    ///
    /// Foundation parses nested arrays and dictionaries by recursion, at about 0.9 KiB of stack per
    /// level (measured with `PropertyListDecoder` on Linux: 256 levels fit in a 256 KiB thread stack,
    /// 300 do not). 128 levels take about 110 KiB, under a quarter of the smallest stack a secondary
    /// thread gets (512 KiB on Apple platforms); a test loads a plist exactly at the limit on a
    /// 256 KiB stack. 512 levels would take about 450 KiB, too close to that. Info.plists nest no more
    /// than six levels.
    public static let maximumDepth = 128

    /// The most objects a property list may hold: 100,000 values, dictionary keys and array elements.
    ///
    /// In a binary plist one object can be referenced many times and a decoder materialises it each
    /// time, so the count is of references as the tree unfolds: 5 million references to one string
    /// take Foundation about 13 seconds to decode. Real Info.plists hold a few hundred.
    public static let maximumObjects = 100_000

    /// A count with thousands separators, as errors print it: `4,194,304`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }
}
