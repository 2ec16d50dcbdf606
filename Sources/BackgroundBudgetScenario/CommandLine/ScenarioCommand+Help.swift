import BackgroundBudgetCore
import BackgroundBudgetExplorer

extension ScenarioCommand {
    /// The options of `run`, as both help pages print them.
    private static let runOptions = """
          -f, --format FORMAT   log    NSLog-style lines, state changes in parentheses (default)
                                jsonl  one JSON object per trace event
                                svg    a timeline picture: a lane per app, a band per state,
                                       bars for activities, tasks and fetches, and a
                                       Device lane with its conditions
          -o, --out PATH        write the output to PATH instead of standard output
                                (a regular file, replaced whole; never a device or pipe)
          --from TIME, --to TIME
                                with --format svg, draw only this stretch of the run;
                                TIME is seconds (90, 1.5) or a number with a unit:
                                ms, s, min, h, d (250ms, 15min, 6h)

        """

    /// The options of `explore`, as both help pages print them.
    private static let exploreOptions = """
          --invariant NAME      check NAME (repeatable; all built-in ones by default):
                                noWatchdogKill, noKillWithOpenTask, everyTaskEndsOnce,
                                scheduledTaskCompletes, noCallbackAfterExit, all, or
                                dataSaved:CALLBACK[,CALLBACK...] (the callbacks that save);
                                NAME:anyExit also counts exits the app cannot prevent
          --seeds N             random walks from N seeds, 1 or more (100 unless only
                                --depth is given)
          --first-seed S        the first seed (1)
          --sequences N         sequences per seed, stopping at the first failure (1000)
          --length N            events per sequence (20)
          --depth D             also search every sequence up to D events, pruning seen
                                states; from depth 2, its size and time are estimated
                                first, and a search estimated past --time-limit is
                                refused (exit 2) with the depth that fits
          --weight EVENT=N      how often random walks pick EVENT (repeatable): an event's
                                name (open, home, reboot, wait, advance, ...) or its whole
                                description ("wait 600 s"); 0 leaves it out
          --time-limit SECONDS  stop after SECONDS on the wall clock and report what was
                                found (300 by default, for a CI job; 0 for no limit)
          --force               search even when the estimate passes --time-limit
                                (the search still stops at the limit)
          --jobs N              run N seeds, or N pieces of the exhaustive search, at
                                once on threads (1 to 256; the processors by default);
                                the results are the same for every N
          --shard I/N           run shard I of N (1 <= I <= N): the seeds at places
                                I, I+N, ... and the I-th share of the exhaustive search's
                                last level; N processes given the same other options
                                try together what one process tries, and 'bgbudget
                                merge' joins their --report files
          --out PATH            write the first counterexample's scenario file to PATH
                                (its relative Info.plist paths are rewritten to resolve
                                from PATH's folder, so 'bgbudget run PATH' works there);
                                PATH is checked before the search, and if writing fails
                                at the end the counterexample is printed instead
          --report PATH         also write what was found as JSON (version 1), for
                                'bgbudget merge'; deterministic: no time in it

        """

    /// Where the scenario format is described, for the commands' own pages.
    private static let formatPointer = """

        Scenario files are JSON; 'bgbudget --help' lists the events and callback steps,
        and the Scenario format article in the documentation describes them.

        """

    /// The help of one command: what `bgbudget COMMAND --help` and `bgbudget help COMMAND` print.
    /// - Parameter command: `run`, `validate`, `explore`, `check` or `merge`; anything else gives the whole ``help``.
    package static func help(for command: String) -> String {
        switch command {
        case "run":
            return """
            bgbudget run: run a scenario on the virtual clock and print its trace.

            USAGE
              bgbudget run FILE [--format log|jsonl|svg] [--out PATH] [--from TIME] [--to TIME]

            OPTIONS

            """ + runOptions + """
              -h, --help            print this help

            EXIT STATUS
              0  the trace was printed or written
              1  the scenario is invalid or unreadable, an event was refused when it ran
                 (no trace is printed), or the output could not be written
              2  the command line is wrong

            """ + formatPointer
        case "validate":
            return """
            bgbudget validate: check a scenario file without running it.

            USAGE
              bgbudget validate FILE

            Prints 'FILE: valid: N apps, M events, ends at T s', or each problem with its
            line, column and JSONPath.

            OPTIONS
              -h, --help            print this help

            EXIT STATUS
              0  the scenario is valid
              1  the scenario is invalid or cannot be read
              2  the command line is wrong

            """ + formatPointer
        case "explore":
            return """
            bgbudget explore: drive a scenario's apps through many sequences of events and
            report every invariant that breaks, shrunk to a minimal scenario file.

            USAGE
              bgbudget explore FILE [--invariant NAME]... [--seeds N] [--first-seed S]
                               [--sequences N] [--length N] [--depth D]
                               [--weight EVENT=N]... [--time-limit SECONDS] [--force]
                               [--jobs N] [--shard I/N] [--out PATH] [--report PATH]

            The scenario's events are the setup every sequence starts from.

            OPTIONS

            """ + exploreOptions + """
              -h, --help            print this help

            Finds of one invariant breaking for one app are one failure: each is shrunk,
            and the report shows the smallest minimum with the seeds that found it.

            Options other than --invariant and --weight may be given once. On a terminal,
            a progress line on standard error shows the sequences tried, the rate, the
            failures so far and the time left. Ctrl-C stops the search and prints what it
            found; a second Ctrl-C quits at once.

            EXIT STATUS
              0  no invariant broke (also when the time limit stopped the search)
              1  an invariant broke (each failure is printed, shrunk), or the scenario is
                 invalid or unreadable; when --out cannot be written at the end the
                 counterexample is printed instead
              2  the command line is wrong, --out cannot be written (checked first), or
                 the exhaustive search is estimated past the time limit
              130  interrupted by Ctrl-C before any invariant broke

            """ + formatPointer
        case "check":
            return """
            bgbudget check: run a scenario file's events with invariants and give the verdict
            'bgbudget explore' gave: re-checks a saved counterexample.

            USAGE
              bgbudget check FILE [--invariant NAME]...

            Give the --invariant options the exploration had (all built-in ones by default).
            Prints 'NAME broke in the file's own events, before any explored event: …' and
            'bgbudget: 1 invariant broke: NAME', as explore does for a file that starts
            broken, or 'no invariant broke'.

            OPTIONS
              --invariant NAME      check NAME (repeatable); the names of explore
              -h, --help            print this help

            EXIT STATUS
              0  no invariant broke
              1  an invariant broke, or the scenario is invalid or unreadable
              2  the command line is wrong

            """ + formatPointer
        case "merge":
            return """
            bgbudget merge: join the reports of the shards of one exploration
            (bgbudget explore --shard I/N --report PATH) into the report of the whole.

            USAGE
              bgbudget merge REPORT... [--report PATH] [--out PATH]

            Give every shard's report once, in any order. Prints what explore without
            --shard prints for the same options (all but the time); the merged --report is
            the file explore --report writes for the whole exploration, byte for byte.

            OPTIONS
              --report PATH         write the merged report (JSON) to PATH
              --out PATH            write the first counterexample's scenario file to PATH
              -h, --help            print this help

            EXIT STATUS
              0  no invariant broke
              1  an invariant broke, a report cannot be read or is not a version 1
                 explore report, or the output could not be written
              2  the command line is wrong, or the reports are not every shard of one
                 exploration once (another scenario or options, a shard missing or twice)

            """
        default:
            return help
        }
    }

    /// The text of `bgbudget --help`; the vocabulary lists come from the tables, so they never fall
    /// behind the format.
    package static var help: String {
        var text = """
        bgbudget: run a BackgroundBudget scenario on the virtual clock and show what iOS does.

        USAGE
          bgbudget run FILE [--format log|jsonl|svg] [--out PATH] [--from TIME] [--to TIME]
          bgbudget validate FILE
          bgbudget explore FILE [--invariant NAME]... [--seeds N] [--first-seed S]
                           [--sequences N] [--length N] [--depth D] [--weight EVENT=N]...
                           [--time-limit SECONDS] [--force] [--jobs N] [--shard I/N]
                           [--out PATH] [--report PATH]
          bgbudget check FILE [--invariant NAME]...
          bgbudget merge REPORT... [--report PATH] [--out PATH]
          bgbudget COMMAND --help, bgbudget help COMMAND
          bgbudget --help

        COMMANDS
          run        Run the scenario and print its trace (or write it to --out PATH).
          validate   Check the scenario without running it.
          explore    Drive the scenario's apps through many sequences of events, report
                     every invariant that breaks, shrunk to a minimal scenario file.
          check      Run a scenario file (a saved counterexample) with invariants and
                     give explore's verdict.
          merge      Join the --report files of explore's shards into the whole report.

        OPTIONS (run)

        """ + runOptions + """

        OPTIONS (explore)

        """ + exploreOptions + """

        EXIT STATUS
          0  success
          1  the scenario is invalid or unreadable, an event was refused when it ran
             (no trace is printed), or the output could not be written
             (explore, check, merge) an invariant broke; (merge) a report is unreadable
          2  the command line is wrong, or (explore) --out cannot be written or the
             search is estimated past its time limit, or (merge) the reports are not
             every shard of one exploration once
          130  (explore) interrupted by Ctrl-C before any invariant broke

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
