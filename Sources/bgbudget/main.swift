// bgbudget: runs a BackgroundBudget scenario file on the virtual clock and prints its trace.
//
//   swift run bgbudget run Examples/scenarios/state-lab.json
//   swift run bgbudget run Examples/scenarios/state-lab.json --format svg --out state-lab.svg
//   swift run bgbudget validate Examples/scenarios/state-lab.json
//   swift run bgbudget --help
//
// All logic lives in the library (`ScenarioCommand`), so that the tests run it in-process.
// Exit status: 0 success, 1 invalid scenario / refused event / unwritable output, 2 usage.
import BackgroundBudget
import Foundation

let outcome = ScenarioCommand.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8))
FileHandle.standardError.write(Data(outcome.standardError.utf8))
exit(outcome.status.rawValue)
