// bgbudget: runs a BackgroundBudget scenario file on the virtual clock and prints its trace.
//
//   swift run bgbudget run Examples/scenarios/state-lab.json
//   swift run bgbudget run Examples/scenarios/state-lab.json --format svg --out state-lab.svg
//   swift run bgbudget validate Examples/scenarios/state-lab.json
//   swift run bgbudget --help
//
// All logic lives in the library (`ScenarioCommand`), so that the tests run it in-process; printing
// too, so that an unwritable output is an exit status, never a crash.
// Exit status: 0 success, 1 invalid scenario / refused event / unreadable input / unwritable output, 2 usage.
import BackgroundBudgetScenario

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

exit(ScenarioCommand.main(Array(CommandLine.arguments.dropFirst())))
