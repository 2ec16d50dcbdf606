import BackgroundBudget

extension ScenarioCommand {
    /// The text of `bgbudget --help`; the vocabulary lists come from the tables, so they never fall
    /// behind the format.
    package static var help: String {
        var text = """
        bgbudget: run a BackgroundBudget scenario on the virtual clock and show what iOS does.

        USAGE
          bgbudget run FILE [--format log|jsonl|svg] [--out PATH] [--from TIME] [--to TIME]
          bgbudget validate FILE
          bgbudget explore FILE [--invariant NAME]... [--seeds N] [--depth D]
          bgbudget --help

        COMMANDS
          run        Run the scenario and print its trace (or write it to --out PATH).
          validate   Check the scenario without running it.
          explore    Drive the scenario's apps through many sequences of events, report
                     every invariant that breaks, shrunk to a minimal scenario file.

        OPTIONS (run)
          -f, --format FORMAT   log    NSLog-style lines, state changes in parentheses (default)
                                jsonl  one JSON object per trace event
                                svg    a timeline picture: a lane per app, a band per state,
                                       bars for activities, tasks and fetches, and a
                                       Device lane with its conditions
          -o, --out PATH        write the output to PATH instead of standard output
          --from TIME, --to TIME
                                with --format svg, draw only this stretch of the run;
                                TIME is seconds (90, 1.5) or a number with a unit:
                                ms, s, min, h, d (250ms, 15min, 6h)

        OPTIONS (explore)
          --invariant NAME      check NAME (repeatable; all built-in ones by default):
                                noWatchdogKill, noKillWithOpenTask, everyTaskEndsOnce,
                                scheduledTaskCompletes, noCallbackAfterExit, all, or
                                dataSaved:CALLBACK[,CALLBACK...] (the callbacks that save);
                                NAME:anyExit also counts exits the app cannot prevent
          --seeds N             random walks from N seeds (100 unless only --depth is given)
          --first-seed S        the first seed (1)
          --sequences N         sequences per seed, stopping at the first failure (1000)
          --length N            events per sequence (20)
          --depth D             also search every sequence up to D events, pruning seen states
          --weight EVENT=N      how often random walks pick EVENT (repeatable): an event's
                                name (open, home, reboot, wait, advance, ...) or its whole
                                description ("wait 600 s"); 0 leaves it out
          --out PATH            write the first counterexample's scenario file to PATH

        EXIT STATUS
          0  success
          1  the scenario is invalid or unreadable, an event was refused when it ran
             (no trace is printed), or the output could not be written
             (explore) an invariant broke
          2  the command line is wrong

        SCENARIO FILES
          JSON: {"description", "policy", "device", "apps", "events", "end"}; see the
          Scenario format article in the documentation, and Examples/scenarios/.
          An app has "id" or "infoPlist" (the path of its Info.plist, XML or binary,
          relative to the scenario file), and may have "displayName", "exitsOnSuspend",
          "backgroundModes", "permittedTaskIdentifiers" and "behaviour".

        EVENTS ("do" in $.events[n], each with "at" in seconds)

        """
        for verb in ScenarioAction.vocabulary {
            text += row(verb.name, verb.keys, verb.summary)
        }
        text += "\nCALLBACK STEPS (\"do\" in $.apps[n].behaviour.<callback>[n])\n"
        for verb in ScenarioStep.vocabulary {
            text += row(verb.name, verb.keys, verb.summary)
        }
        text += "\nREASONS\n"
        text += "  launch reasons:      " + LaunchReason.allCases.map(\.rawValue).joined(separator: ", ") + "\n"
        text += "  termination reasons: " + TerminationReason.allCases.map(\.rawValue).joined(separator: ", ") + "\n"
        return text
    }

    private static func row(_ name: String, _ keys: [String], _ summary: String) -> String {
        let head = "  " + name + (keys.isEmpty ? "" : " (" + keys.joined(separator: ", ") + ")")
        let padded = head.count < 34 ? head + String(repeating: " ", count: 34 - head.count) : head + "\n" + String(repeating: " ", count: 34)
        return padded + summary + "\n"
    }
}
