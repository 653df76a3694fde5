/*
 * kinetic_engine_transition.c: the demo's interactive dismissal (scene 5), driven from C
 * through kn_engine_*: a full-screen card (its centre y, and the alpha of the dimming view
 * behind it) is dragged down to 40 % by a synthetic finger and let go (cancelled: it springs
 * back), then dragged to 70 % and let go again (finished: it springs off screen). Each drag
 * pauses the run and scrubs it frame by frame, the finger's samples going through a
 * kn_velocity_tracker; each release continues it with a spring (damping ratio 0.85) over the
 * time the rest of the transition had left, whose initial velocity is the tracker's, as
 * PercentDrivenInteractiveTransition's finish(velocity:) and cancel(velocity:) do: the card
 * moves at the finger's velocity just after the release (checked with kn_engine_read_velocity).
 *
 *     kinetic_engine_transition OUT.csv
 *
 * Writes the timeline as the demo's scene CSVs are written (time,view,property,value,velocity;
 * one row per lane per 60 Hz frame), to OUT.csv.tmp and then renamed, so a reader never sees half
 * a file. Checks what the engine promises along the way (exact scrub values, exact rest at
 * the start after the cancel and at the end after the finish, the events) and exits 1 if any
 * check fails.
 */
#include <kinetic.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
        }                                                                        \
    } while (0)

#define OK(call) CHECK((call) == KN_OK)

static const double screen_height = 844, card_y = 422, dim_alpha = 0.4, duration = 0.5, rate = 60;

static kn_engine *engine;
static FILE *out;
static int64_t lanes[2]; /* card y, dimming alpha */
static int frame = 0;

static void record(void) {
    double values[2], velocities[2];
    OK(kn_engine_read(engine, lanes[0], 2, values));
    OK(kn_engine_read_velocity(engine, lanes[0], 2, velocities));
    double t = frame / rate;
    fprintf(out, "%.17g,card,y,%.17g,%.17g\n", t, values[0], velocities[0]);
    fprintf(out, "%.17g,dimming,alpha,%.17g,%.17g\n", t, values[1], velocities[1]);
}

static void step(void) {
    frame++;
    OK(kn_engine_advance_to(engine, frame / rate));
    record();
}

/* Takes the queued events; returns the number of KN_EVENT_FINISHED ones and their last position. */
static int finished_events(int32_t *position) {
    int n = 0;
    int32_t has = 1;
    while (has) {
        kn_event e;
        OK(kn_engine_next_event(engine, &e, &has));
        if (has && e.kind == KN_EVENT_FINISHED) {
            n++;
            *position = e.position;
        }
    }
    return n;
}

/* A drag that reaches `percent` over `frames` frames, then lets go: finish or cancel. */
static void drag(double percent, int frames, int finish) {
    kn_timing ease = {KN_TIMING_CUBIC, 0.42, 0, 0.58, 1, 0, NULL, 0, 0};
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &ease, duration, &run));
    const double targets[2] = {card_y + screen_height, 0};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 2, 0));
    OK(kn_engine_run_pause(engine, run)); /* interactive from the first frame */
    kn_velocity_tracker *tracker = NULL;
    OK(kn_velocity_tracker_create(KN_VELOCITY_LSQ2, 1, &tracker));
    for (int k = 1; k <= frames; k++) {
        double p = percent * k / frames;
        OK(kn_engine_run_set_fraction(engine, run, p));
        double finger = screen_height * p;
        OK(kn_velocity_tracker_add(tracker, frame / rate, &finger));
        step();
        double y = 0;
        OK(kn_engine_read(engine, lanes[0], 1, &y));
        /* Scrubbed linearly: the finger's position exactly. */
        CHECK(y == card_y + screen_height * p);
    }
    /* Let go: a spring over the time the transition had left, starting at the finger's
     * velocity (points per second), normalised to the distance left toward the end it
     * heads for (UIKit's initialVelocity). */
    double velocity = NAN;
    OK(kn_velocity_tracker_velocity(tracker, frame / rate, &velocity));
    kn_velocity_tracker_destroy(tracker);
    CHECK(fabs(velocity - screen_height * percent * rate / frames) <= 1e-9 * fabs(velocity));
    double remaining = finish ? 1 - percent : percent;
    double normalised = (finish ? velocity : -velocity) / (screen_height * remaining);
    kn_timing spring = {KN_TIMING_DAMPED_SPRING, 0, 0, 0, 0, 0.85, NULL, normalised, normalised};
    if (!finish) OK(kn_engine_run_set_reversed(engine, run, 1));
    OK(kn_engine_run_continue(engine, run, &spring, remaining));
    double released = NAN;
    OK(kn_engine_read_velocity(engine, lanes[0], 1, &released));
    CHECK(fabs(released - velocity) <= 1e-9 * fabs(velocity));
    int32_t position = -1;
    int ended = 0;
    for (int guard = 0; guard < 600 && !ended; guard++) {
        step();
        ended = finished_events(&position);
    }
    CHECK(ended == 1);
    CHECK(position == (finish ? KN_POSITION_END : KN_POSITION_START));
    double rest[2];
    OK(kn_engine_read(engine, lanes[0], 2, rest));
    CHECK(rest[0] == (finish ? card_y + screen_height : card_y));
    CHECK(rest[1] == (finish ? 0 : dim_alpha));
    OK(kn_engine_run_release(engine, run));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.csv\n", argv[0]);
        return 2;
    }
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", argv[1]) >= (int)sizeof temporary) {
        fprintf(stderr, "kinetic_engine_transition: path too long\n");
        return 2;
    }
    out = fopen(temporary, "w");
    if (!out) {
        perror(temporary);
        return 2;
    }
    fprintf(out, "time,view,property,value,velocity\n");
    OK(kn_engine_create(&engine));
    const double start[2] = {card_y, dim_alpha};
    OK(kn_engine_add_lanes(engine, start, 2, &lanes[0]));
    lanes[1] = lanes[0] + 1;
    record();
    drag(0.4, 24, 0);
    for (int k = 0; k < 6; k++) step();
    drag(0.7, 30, 1);
    kn_engine_destroy(engine);
    if (fflush(out) != 0 || ferror(out) || fclose(out) != 0 || rename(temporary, argv[1]) != 0) {
        perror(argv[1]);
        remove(temporary);
        return 2;
    }
    printf("kinetic_engine_transition: %d frames to %s, %s\n", frame, argv[1], failures ? "FAILED" : "all checks held");
    return failures == 0 ? 0 : 1;
}
