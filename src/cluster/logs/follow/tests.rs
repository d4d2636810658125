//! The follower, event by event, on pods built in code.

use super::*;
use crate::cluster::logs::select::{Target, MAIN_CONTAINER};
use crate::cluster::logs::testing::*;
use kube::core::Status;
use tracker::Tracked;
use watcher::Event::{Apply, Delete, Init, InitApply, InitDone};

fn options(max: usize) -> Options {
    Options {
        target: Target {
            name: Some("orders".into()),
            ..Target::default()
        },
        fallback: None,
        containers: crate::cluster::logs::Containers::default_choice(),
        previous: false,
        since_seconds: None,
        since_time: None,
        tail: Some(200),
        timestamps: false,
        max_requests: max,
        request_timeout: None,
        verbose: 0,
    }
}

fn running_pod(name: &str, labels: &[(&str, &str)], restarts: i32) -> Pod {
    let mut p = with_status(
        pod(name, labels, &[MAIN_CONTAINER]),
        MAIN_CONTAINER,
        restarts,
        run_state(),
        None,
    );
    p.metadata.uid = Some(format!("uid-{name}"));
    p
}

fn follower(max: usize) -> Follower {
    Follower::new(
        &options(max),
        Arc::new(Notices::held()),
        "namespace ns (context test)".into(),
        vec![Some("ns".into())],
        Instant::now(),
    )
}

/// An event of the watch of selector `i` (0: the Apache operator's labels, then Lyft's and the
/// FlinkCluster's: `Target::selectors`).
fn watch(f: &mut Follower, i: usize, ev: watcher::Event<Pod>) {
    assert!(f.handle(Event::Watch(i, Box::new(Ok(ev)))).is_continue());
}

/// The first list: `pods` for the first selector, none for the others.
fn first_list(f: &mut Follower, pods: Vec<Pod>) {
    watch(f, 0, Init);
    for p in pods {
        watch(f, 0, InitApply(p));
    }
    watch(f, 0, InitDone);
    assert!(!f.synced, "one selector is not all");
    others_listed_empty(f, 1);
}

/// The first lists of selectors `from..` find nothing; then every selector has been listed.
fn others_listed_empty(f: &mut Follower, from: usize) {
    for i in from..f.queries.len() {
        assert!(!f.synced, "selector {i} is not listed yet");
        watch(f, i, Init);
        watch(f, i, InitDone);
    }
    assert!(f.synced);
}

fn said(f: &Follower) -> Vec<String> {
    f.notices.held.as_ref().unwrap().lock().unwrap().clone()
}

fn said_with(f: &Follower, needle: &str) -> usize {
    said(f).iter().filter(|l| l.contains(needle)).count()
}

fn followed(f: &Follower) -> Vec<&str> {
    f.tracker.tracked.keys().map(|k| k.1.as_str()).collect()
}

fn tracked<'a>(f: &'a Follower, pod: &str) -> &'a Tracked {
    &f.tracker.tracked[&("ns".into(), pod.into(), MAIN_CONTAINER.into())]
}

fn api_error(code: u16, message: &str) -> kube::Error {
    kube::Error::Api(Status::failure(message, "").with_code(code).boxed())
}

fn ended(s: &Start, result: Result<u64, StreamError>) -> Event {
    Event::Stream(Ended {
        key: s.key.clone(),
        generation: s.generation,
        result,
    })
}

#[test]
fn follow_admits_in_order_up_to_the_cap_then_sees_restarts_and_deletions() {
    let mut f = follower(2);
    first_list(
        &mut f,
        vec![
            running_pod("tm-2", TM, 0),
            running_pod("jm", JM, 0),
            running_pod("tm-1", TM, 0),
        ],
    );
    assert_eq!(followed(&f), vec!["jm", "tm-1"]);
    // Running when we started: opened at once, with the user's tail.
    let starts = f.due(Instant::now());
    let opened: Vec<(&str, Option<i64>)> = starts
        .iter()
        .map(|s| (s.key.1.as_str(), s.open.tail))
        .collect();
    assert_eq!(opened, vec![("jm", Some(200)), ("tm-1", Some(200))]);

    // tm-1 restarts: said once, read from the new instance's first line.
    watch(&mut f, 0, Apply(running_pod("tm-1", TM, 1)));
    watch(&mut f, 0, Apply(running_pod("tm-1", TM, 1)));
    let t = tracked(&f, "tm-1");
    assert_eq!((t.restart_count, t.first_tail), (1, None));

    // tm-1 is deleted: said once; tm-2 takes the freed slot with the user's tail (it was
    // running when we started). tm-3 appears: no slot is free.
    watch(&mut f, 0, Delete(running_pod("tm-1", TM, 1)));
    watch(&mut f, 0, Apply(running_pod("tm-3", TM, 0)));
    assert_eq!(followed(&f), vec!["jm", "tm-2"]);
    assert_eq!(tracked(&f, "tm-2").first_tail, Some(200));

    // The JobManager goes: tm-3 takes its slot, from its first line (it started later).
    watch(&mut f, 0, Delete(running_pod("jm", JM, 0)));
    assert_eq!(followed(&f), vec!["tm-2", "tm-3"]);
    assert_eq!(tracked(&f, "tm-3").first_tail, None);

    let all = said(&f);
    assert_eq!(
        said_with(&f, "--max-log-requests 2: following 2 of 3"),
        1,
        "{all:?}"
    );
    assert_eq!(
        said_with(&f, "tm-1/flink-main-container restarted (restart 1)"),
        1,
        "{all:?}"
    );
    assert!(
        all.iter()
            .any(|l| l.contains("pod/tm-1 (TaskManager) is gone")
                && l.contains("taskmanager-timeout")),
        "{all:?}"
    );
    assert_eq!(said_with(&f, "pod/jm (JobManager) is gone"), 1, "{all:?}");
}

#[test]
fn a_pod_that_appears_is_read_from_its_first_line_once_it_runs() {
    let mut f = follower(10);
    first_list(&mut f, vec![running_pod("jm", JM, 0)]);
    assert_eq!(said_with(&f, "appeared"), 0, "{:?}", said(&f));
    // Created: not started yet, so nothing to open.
    let mut created = pod("tm-3", TM, &[MAIN_CONTAINER]);
    created.metadata.uid = Some("uid-tm-3".into());
    watch(&mut f, 0, Apply(created));
    assert_eq!(said_with(&f, "pod/tm-3 (TaskManager) appeared"), 1);
    assert!(f.due(Instant::now()).iter().all(|s| s.key.1 != "tm-3"));
    // Running: opened with every line.
    watch(&mut f, 0, Apply(running_pod("tm-3", TM, 0)));
    let starts = f.due(Instant::now());
    let tm3 = starts.iter().find(|s| s.key.1 == "tm-3").expect("tm-3 due");
    assert_eq!(tm3.open.tail, None);
    assert!(tm3.open.follow);

    // Deleted and created again under the same name: a new pod (another uid).
    let mut again = running_pod("tm-3", TM, 0);
    again.metadata.uid = Some("uid-tm-3-again".into());
    watch(&mut f, 0, Apply(again));
    assert_eq!(said_with(&f, "pod/tm-3 (TaskManager) is gone"), 1);
    assert_eq!(tracked(&f, "tm-3").uid, "uid-tm-3-again");
    // (Saying that it appeared again is the same line: notices say each line once.)
    assert_eq!(said_with(&f, "pod/tm-3 (TaskManager) appeared"), 1);
}

#[test]
fn a_relist_says_what_went_away_meanwhile_and_follows_what_came() {
    let mut f = follower(10);
    first_list(
        &mut f,
        vec![
            running_pod("jm", JM, 0),
            running_pod("tm-1", TM, 0),
            running_pod("tm-2", TM, 0),
        ],
    );
    // The watch fell out of the window: nothing to say, the watcher lists again.
    let expired = watcher::Error::WatchError(
        Status::failure("too old resource version", "Expired")
            .with_code(410)
            .boxed(),
    );
    assert!(f
        .handle(Event::Watch(0, Box::new(Err(expired))))
        .is_continue());
    watch(&mut f, 0, Init);
    watch(&mut f, 0, InitApply(running_pod("jm", JM, 0)));
    watch(&mut f, 0, InitApply(running_pod("tm-2", TM, 2)));
    watch(&mut f, 0, InitApply(running_pod("tm-3", TM, 0)));
    assert_eq!(
        followed(&f),
        vec!["jm", "tm-1", "tm-2"],
        "not before InitDone"
    );
    watch(&mut f, 0, InitDone);
    assert_eq!(followed(&f), vec!["jm", "tm-2", "tm-3"]);
    let all = said(&f);
    assert_eq!(
        said_with(&f, "pod/tm-1 (TaskManager) is gone"),
        1,
        "{all:?}"
    );
    assert_eq!(
        said_with(&f, "tm-2/flink-main-container restarted (restart 2)"),
        1
    );
    assert_eq!(said_with(&f, "pod/tm-3 (TaskManager) appeared"), 1);
    assert!(!all.iter().any(|l| l.starts_with("warning")), "{all:?}");
}

#[test]
fn a_list_again_after_410_gone_is_bounded_as_the_first_and_its_watch_starts_over() {
    let mut f = follower(10);
    first_list(
        &mut f,
        vec![running_pod("jm", JM, 0), running_pod("tm-1", TM, 0)],
    );
    assert_eq!(f.next_wakeup(), None);
    let expired = || {
        watcher::Error::WatchError(
            Status::failure("too old resource version", "Expired")
                .with_code(410)
                .boxed(),
        )
    };
    for round in 0..2 {
        assert!(f
            .handle(Event::Watch(0, Box::new(Err(expired()))))
            .is_continue());
        // The watcher lists again, and the server never answers.
        watch(&mut f, 0, Init);
        let deadline = f.relist_deadlines[0].expect("a list again has a deadline");
        assert_eq!(f.next_wakeup(), Some(deadline));
        assert!(f.on_tick(deadline - Duration::from_secs(1)).is_continue());
        assert!(f.restart.is_empty());
        assert!(f.on_tick(deadline).is_continue(), "the run goes on");
        assert_eq!(std::mem::take(&mut f.restart), vec![0], "round {round}");
        assert_eq!(f.next_wakeup(), None);
        assert_eq!(followed(&f), vec!["jm", "tm-1"], "the streams go on");
    }
    assert_eq!(
        said_with(
            &f,
            "warning: list pods in namespace ns: no answer within 30s; still following what is open, retrying"
        ),
        1,
        "{:?}",
        said(&f)
    );
    // The new watch lists in time: what changed meanwhile is followed.
    watch(&mut f, 0, Init);
    watch(&mut f, 0, InitApply(running_pod("jm", JM, 0)));
    watch(&mut f, 0, InitApply(running_pod("tm-2", TM, 0)));
    watch(&mut f, 0, InitDone);
    assert_eq!(f.next_wakeup(), None);
    assert_eq!(followed(&f), vec!["jm", "tm-2"]);
    assert_eq!(
        said_with(&f, "watching pods works again after 2 failure(s)"),
        1,
        "{:?}",
        said(&f)
    );
}

#[test]
fn watch_errors_end_the_run_before_the_first_list_and_are_said_once_after() {
    let forbidden = watcher::Error::InitialListFailed(api_error(403, "pods is forbidden"));
    match follower(10).handle(Event::Watch(1, Box::new(Err(forbidden)))) {
        ControlFlow::Break(Err(Error::Incomplete(m))) => {
            assert!(m.contains("list pods in namespace ns: forbidden"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    let bad = watcher::Error::InitialListFailed(api_error(400, "unable to parse requirement"));
    match follower(10).handle(Event::Watch(0, Box::new(Err(bad)))) {
        ControlFlow::Break(Err(Error::Input(m))) => assert!(
            m.contains(
                "list pods with selector `app=orders,component in (jobmanager,taskmanager)`"
            ),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }

    // The watch of a selector that was listed fails while the other is still being listed: not
    // the first list's failure, so it does not end the run.
    let mut f = follower(10);
    watch(&mut f, 0, Init);
    watch(&mut f, 0, InitApply(running_pod("jm", JM, 0)));
    watch(&mut f, 0, InitDone);
    let e = watcher::Error::WatchStartFailed(api_error(403, "pods is forbidden"));
    assert!(f.handle(Event::Watch(0, Box::new(Err(e)))).is_continue());
    others_listed_empty(&mut f, 1);
    assert_eq!(followed(&f), vec!["jm"]);

    // After the first list the watcher retries (backing off) while the streams go on.
    let mut f = follower(10);
    first_list(&mut f, vec![running_pod("jm", JM, 0)]);
    for _ in 0..3 {
        let e = watcher::Error::WatchStartFailed(api_error(403, "pods is forbidden"));
        assert!(f.handle(Event::Watch(0, Box::new(Err(e)))).is_continue());
    }
    watch(&mut f, 0, Apply(running_pod("jm", JM, 0)));
    let all = said(&f);
    assert_eq!(
        said_with(&f, "warning: watch pods in namespace ns: forbidden: pods is forbidden; still following what is open"),
        1,
        "{all:?}"
    );
    assert_eq!(
        said_with(&f, "watching pods works again after 3 failure(s)"),
        1,
        "{all:?}"
    );
}

#[test]
fn the_first_list_must_come_in_time_then_no_timer_runs_without_a_reason() {
    let mut f = follower(10);
    let deadline = f.first_list_deadline;
    assert_eq!(f.next_wakeup(), Some(deadline));
    assert!(f.on_tick(deadline - Duration::from_secs(1)).is_continue());
    match f.on_tick(deadline) {
        ControlFlow::Break(Err(Error::Incomplete(m))) => {
            assert_eq!(m, "list pods in namespace ns: no answer within 30s")
        }
        other => panic!("{other:?}"),
    }

    let mut f = follower(10);
    first_list(&mut f, Vec::new());
    assert_eq!(f.next_wakeup(), None);
    assert!(f.on_tick(deadline + Duration::from_secs(60)).is_continue());
    // Nothing matched: said once, also when pods come and go.
    watch(&mut f, 0, Apply(running_pod("jm", JM, 0)));
    watch(&mut f, 0, Delete(running_pod("jm", JM, 0)));
    assert_eq!(said_with(&f, "no pods match"), 1, "{:?}", said(&f));
    assert!(said(&f)[0].contains("waiting for them to appear"));
}

#[test]
fn streams_are_retried_when_due_and_all_forbidden_ends_the_run() {
    let mut f = follower(10);
    first_list(
        &mut f,
        vec![running_pod("jm", JM, 0), running_pod("tm-1", TM, 0)],
    );
    let now = Instant::now();
    let starts = f.due(now);
    assert_eq!(starts.len(), 2);
    let tm1 = &starts[1];

    // tm-1's stream breaks: said once, due again after a backoff (the timer's next wake-up).
    let broken = || Err(StreamError::Transport("connection reset".into()));
    assert!(f.handle(ended(tm1, broken())).is_continue());
    let retry = f.next_wakeup().expect("a retry");
    assert!(retry > now);
    assert!(f.due(now).iter().all(|s| s.key.1 != "tm-1"));
    let again = f.due(retry);
    let again = again.iter().find(|s| s.key.1 == "tm-1").expect("due");
    assert!(again.generation > tm1.generation);
    // The end of a stream of an older generation changes nothing.
    assert!(f.handle(ended(tm1, broken())).is_continue());
    assert_eq!(tracked(&f, "tm-1").retry_at, None);
    assert_eq!(said_with(&f, "log stream failed (connection reset)"), 1);

    // Every log forbidden and none ever opened: exit 3.
    let mut f = follower(10);
    first_list(
        &mut f,
        vec![running_pod("jm", JM, 0), running_pod("tm-1", TM, 0)],
    );
    let starts = f.due(Instant::now());
    let forbidden = || Err(StreamError::Forbidden("pods/log is forbidden".into()));
    assert!(f.handle(ended(&starts[0], forbidden())).is_continue());
    match f.handle(ended(&starts[1], forbidden())) {
        ControlFlow::Break(Err(Error::Incomplete(m))) => assert!(
            m.contains("cannot read any pod's log in namespace ns (context test): forbidden"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }

    // The output closed, or Ctrl-C: done, exit 0.
    let mut f = follower(10);
    let closed = Ended {
        key: ("ns".into(), "jm".into(), MAIN_CONTAINER.into()),
        generation: 1,
        result: Err(StreamError::Closed),
    };
    assert!(matches!(
        f.handle(Event::Stream(closed)),
        ControlFlow::Break(Ok(EXIT_OK))
    ));
    assert!(matches!(
        follower(10).handle(Event::Shutdown),
        ControlFlow::Break(Ok(EXIT_OK))
    ));
}

#[test]
fn a_name_without_pods_is_followed_as_a_pod_query_and_namespaces_multiply_the_watches() {
    use crate::cluster::logs::select::Pattern;
    let mut opts = options(50);
    opts.target.name = Some("orders-taskmanager".into());
    opts.fallback = Some(Target {
        pod_query: Some(Pattern::new("orders-taskmanager").unwrap()),
        or_deployment: Some("orders-taskmanager".into()),
        ..Target::default()
    });
    let mut f = Follower::new(
        &opts,
        Arc::new(Notices::held()),
        "namespaces a, b (context test)".into(),
        vec![Some("a".into()), Some("b".into())],
        Instant::now(),
    );
    // Two namespaces times one selector per deployment mode.
    let modes = opts.target.selectors().len();
    assert_eq!(modes, 3);
    assert_eq!(f.queries.len(), 2 * modes);
    assert_eq!(f.queries[modes - 1].ns.as_deref(), Some("a"));
    assert_eq!(f.queries[modes].ns.as_deref(), Some("b"));
    assert!(f.queries[0].selector.starts_with("app=orders-taskmanager,"));
    for i in 0..2 * modes {
        watch(&mut f, i, Init);
        watch(&mut f, i, InitDone);
    }
    // No pod of a deployment named so: the watches start over with the query, nothing said yet.
    assert!(!f.synced && f.rewatch && f.fell_back);
    assert!(f.queries[0].selector.starts_with("app,"), "{:?}", f.queries);
    assert!(said(&f).is_empty(), "{:?}", said(&f));
    f.rewatch = false;
    watch(&mut f, 0, Init);
    watch(&mut f, 0, InitApply(running_pod("orders-jm", JM, 0)));
    watch(
        &mut f,
        0,
        InitApply(running_pod("orders-taskmanager-1-1", TM, 0)),
    );
    watch(&mut f, 0, InitDone);
    for i in 1..2 * modes {
        watch(&mut f, i, Init);
        watch(&mut f, i, InitDone);
    }
    assert!(f.synced && !f.rewatch);
    assert_eq!(followed(&f), vec!["orders-taskmanager-1-1"]);
    assert_eq!(
        said_with(&f, "following the Flink pods whose name matches"),
        1
    );
    // It does not fall back twice.
    assert!(f.fell_back);
}
