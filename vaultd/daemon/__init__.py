"""The vault agent: inbox watcher, rules, job queue, scheduler and service install."""
