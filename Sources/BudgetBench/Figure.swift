/// One measured figure and the alternative it is compared with, if any.
struct Figure {
    var name: String
    var value: Double
    /// Printed with the figure so a reader sees the target next to the result.
    var note: String = ""
}
