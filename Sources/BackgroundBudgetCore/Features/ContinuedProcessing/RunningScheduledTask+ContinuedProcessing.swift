extension RunningScheduledTask {
    /// What the user sees of the task while it runs or expires, as `app`'s.
    func activity(app: AppID) -> ContinuedProcessingActivity {
        ContinuedProcessingActivity(app: app, identifier: identifier, title: title, subtitle: subtitle,
                                    phase: expiredAt == nil ? .running : .expiring,
                                    completedUnitCount: completed, totalUnitCount: total)
    }
}
