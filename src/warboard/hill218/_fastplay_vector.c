/*
 * _fastplay_vector.c: a batch of N stepped games for warboard.hill218.vector, #included by
 * _fastplay.c (it uses that file's Game, rules tables and random plays).
 *
 * Where _fastplay.c plays whole games, a Batch stops each game at the decisions of the seats the
 * caller plays (one seat against a uniformly random opponent played here, or both seats for
 * self-play) and speaks the fixed-shape encoding of warboard.hill218.encoding (CardEncoding):
 *
 *   - action ids: Bury(a, b) = a * n + b; Strike(cell) = n^2 + index(cell); Deploy(unit, at,
 *     hits) = deploy_base[unit] + index(at) * S + slot, where index() is the cell's place in the
 *     window of the acting seat's frame (seat 1's board turned half a circle) and slot numbers
 *     the hit sequence as itertools.product over the unit's sorted attack offsets, shortest
 *     first. A play outside the window has no id (it is still one of the random plays);
 *   - observations as flat_observation (warboard.adapters.base) builds them, but as uint8
 *     counts: the board planes are the same 0/1, each public and private value is its numerator
 *     (warboard.hill218.vector divides by the denominators to get CardEncoding's floats);
 *   - action masks: one byte per action id, 1 for the legal plays of the seat to act.
 *
 * The output arrays belong to the Python side (NumPy arrays held through the buffer protocol
 * for the batch's life): each step writes rows in place, no Python object per game or step.
 * A game that ends is started again in the same step (Gymnasium's SAME_STEP autoreset): its
 * reward and final observation are written first. Chance (first player, draws) and the random
 * plays come from each game's own Rng, seeded by reset.
 *
 * The encoding layout (ints, from warboard.hill218.vector):
 *   window, max_decisions, num_actions,
 *   per unit: deploy_base, n, n ranks (the place of each attack offset, in diagram order,
 *             among the unit's sorted offsets)
 */

/* phases of a stepped game */
enum { PH_DEAL = 1, PH_BURY, PH_PLAY, PH_OVER };

#define N_PUBLIC_FIXED 15       /* public values before the destroyed counts (encoding.py) */

typedef struct {
    Game *g;
    int agent;                  /* the seat the caller plays, or -1: both (self-play) */
    int phase;
    int seat;                   /* PH_DEAL, PH_BURY: the setup seat; PH_PLAY: the seat to move */
    int plays_left, first, turn;
    Result res;
    Play pending;               /* the decision being applied (batch_step) */
    int pending_a, pending_b;   /* ... when it is a burial */
    Trace trace, prev;          /* events of this game and of the one before, when recording */
} Env;

typedef struct {
    const Rules *R;
    PyObject *rules_capsule;    /* keeps R alive */
    int n_envs;
    int record;
    Env *envs;
    /* the encoding */
    int window, radius, cells, max_decisions, num_actions, strike_base;
    int deploy_base[MAX_UNITS];
    int rank[MAX_UNITS][MAX_OFFS];
    int slot_start[MAX_UNITS][MAX_ATTACKS + 1];  /* first slot of the sequences of each length */
    int n_offsets[MAX_UNITS];
    int n_slots[MAX_UNITS];     /* S: hit sequences of each unit */
    size_t board_len, obs_size;
    /* the caller's arrays: obs and final_obs (N x obs_size uint8), mask (N x num_actions
     * bool), rewards (N float32), terminated (N bool), seats (N int8: the seat to act) */
    Py_buffer obs, final_obs, mask, rewards, terminated, seats;
    int n_buffers;              /* how many of them are held (in that order) */
    int busy;                   /* a call is stepping it without the GIL */
} Batch;

#define BATCH_NAME "warboard.hill218._fastplay.Batch"

/* ------------------------------------------------------------------ one stepped game */

static int controls(const Env *e, int seat) { return e->agent < 0 || e->agent == seat; }

static void start_turn(Env *e, int seat)
{
    int n = e->turn == 0 ? 1 : 2;   /* the first player's first turn: draw 1, play 1 */
    e->turn++;
    e->seat = seat;
    e->plays_left = n;
    draw_cards(e->g, seat, n);
    e->phase = PH_PLAY;
}

/* After a seat's setup (draws, burial): the other seat's, or the first turn. */
static void next_setup(Env *e)
{
    if (e->seat == 0) {
        e->seat = 1;
        e->phase = PH_DEAL;
    } else {
        start_turn(e, e->first);
    }
}

/* A play was applied: the game may be over (a base taken). */
static void after_play(Env *e, int used)
{
    e->plays_left -= used;
    if (e->g->over) {
        finish(e->g, &e->res, 0);
        e->phase = PH_OVER;
    }
}

/* The seat to decide makes a uniformly random decision (as _fastplay's random games do: every
 * complete legal play, with an id or not). The phase is PH_BURY or PH_PLAY with a legal play
 * (the decisions batch_step is asked to make). */
static void random_decision(Env *e)
{
    Game *g = e->g;
    if (e->phase == PH_BURY) {
        bury(g, e->seat);
        next_setup(e);
        return;
    }
    Play p;
    if (!choose_play(g, e->seat, e->plays_left, &p)) {
        g->error = ERR_INTERNAL;    /* advance() found a legal play */
        return;
    }
    after_play(e, apply_play(g, e->seat, &p));
}

/* Runs chance events and the random seat's decisions (as the Python engine's _run) until a
 * decision of a seat the caller plays, or the end. */
static void advance(const Batch *B, Env *e)
{
    const Rules *R = B->R;
    Game *g = e->g;
    while (!g->error) {
        switch (e->phase) {
        case PH_DEAL:
            draw_cards(g, e->seat, R->setup_draw);
            if (R->bury)
                e->phase = PH_BURY;
            else
                next_setup(e);
            break;
        case PH_BURY:
            if (controls(e, e->seat))
                return;
            random_decision(e);
            break;
        case PH_PLAY:
            if (e->plays_left > 0) {
                if (controls(e, e->seat)) {
                    if (has_play(g, e->seat, e->plays_left))
                        return;     /* the caller's decision */
                } else {
                    Play p;         /* the random seat; no legal play ends its turn */
                    if (choose_play(g, e->seat, e->plays_left, &p)) {
                        after_play(e, apply_play(g, e->seat, &p));
                        break;
                    }
                    if (g->error)
                        return;
                }
            }
            if (cards_exhausted(g)) {
                finish(g, &e->res, 1);
                e->phase = PH_OVER;
            } else {
                start_turn(e, 1 - e->seat);
            }
            break;
        default:                /* PH_OVER */
            return;
        }
        if (e->turn > MAX_TURNS)
            g->error = ERR_TURNS;
    }
}

/* A fresh game, advanced to its first decision of a seat the caller plays. */
static void env_start(const Batch *B, Env *e)
{
    if (B->record) {
        Trace t = e->prev;      /* keep the finished game's events, reuse the older array */
        e->prev = e->trace;
        e->trace = t;
        e->trace.n = 0;
        e->g->trace = &e->trace;
    }
    e->first = start_game(e->g);
    e->turn = 0;
    e->seat = 0;
    e->phase = PH_DEAL;
    advance(B, e);
    if (e->phase == PH_OVER)
        e->g->error = ERR_INTERNAL;  /* no ruleset ends a game before both seats decide */
}

/* ------------------------------------------------------------------ the encoding */

/* The window index of board cell c seen from `seat`, or -1 outside the window. */
static int window_index(const Batch *B, int seat, int c)
{
    int x = cell_x(B->R, c), y = cell_y(B->R, c), r = B->radius;
    if (seat) {
        x = -x;
        y = -y;
    }
    if (x < -r || x > r || y < -r || y > r)
        return -1;
    return (y + r) * B->window + x + r;
}

/* What scan_plays() looks for: every legal decision with an id marked in mask (when not NULL),
 * and the decision with id `want` (when >= 0) stored in *play (a burial: in bury_a, bury_b). */
typedef struct {
    const Batch *B;
    const Env *e;
    uint8_t *mask;
    long want;
    int found;
    long marked;
    Play *play;
    int bury_a, bury_b;
    /* the deployment being enumerated */
    int uid, cell, base, nt;
    int tgt[MAX_OFFS], hp[MAX_OFFS], rank[MAX_OFFS];
    int seq[MAX_ATTACKS];
} Scan;

static int scan_id(Scan *s, long id)
{
    if (s->mask) {
        s->mask[id] = 1;
        s->marked++;
    }
    return id == s->want;
}

/* Every hit sequence of the deployment s->uid at s->cell, as Python's hit_sequences() lists
 * them: each attack hits a target still standing while there is one. */
static void scan_hits(Scan *s, int left, int len, long value)
{
    int any = 0;
    if (left > 0 && len < MAX_ATTACKS) {  /* len + left <= attacks <= MAX_ATTACKS */
        for (int i = 0; i < s->nt; i++) {
            if (s->hp[i] <= 0)
                continue;
            any = 1;
            s->hp[i]--;
            s->seq[len] = i;
            scan_hits(s, left - 1, len + 1, value * s->B->n_offsets[s->uid] + s->rank[i]);
            s->hp[i]++;
        }
    }
    if (!any && scan_id(s, s->base + s->B->slot_start[s->uid][len] + value)) {
        Play *p = s->play;
        p->kind = EV_DEPLOY;
        p->uid = s->uid;
        p->cell = s->cell;
        p->nhits = len;
        for (int h = 0; h < len; h++)
            p->hits[h] = s->tgt[s->seq[h]];
        s->found = 1;
    }
}

static void scan_deploys(Scan *s, int uid)
{
    const Batch *B = s->B;
    Game *g = s->e->g;
    int seat = s->e->seat;
    const Diagram *a = &B->R->attack[seat][uid];
    int n = deploy_cells(g, seat, uid, g->cells);
    for (int i = 0; i < n; i++) {
        int c = g->cells[i], index = window_index(B, seat, c);
        if (index < 0)
            continue;
        s->uid = uid;
        s->cell = c;
        s->base = B->deploy_base[uid] + index * B->n_slots[uid];
        s->nt = 0;
        if (c != base_cell(B->R, 1 - seat)) {  /* taking the enemy base makes no attack */
            for (int k = 0; k < a->n; k++) {
                int t = c + a->off[k], code = g->board[t];
                if (code && SEAT(code) != seat && (a->ind[k] || is_supported(g, seat, t, c))) {
                    s->tgt[s->nt] = t;
                    s->hp[s->nt] = B->R->hits_to_destroy[UID(code)];
                    s->rank[s->nt] = B->rank[uid][k];
                    s->nt++;
                }
            }
        }
        scan_hits(s, B->R->attacks[uid], 0, 0);
    }
}

/* The legal decisions of the env's seat to act (PH_BURY or PH_PLAY), as described at Scan.
 * With `want` set, only the part of the decisions that could have that id is looked at. */
static void scan_plays(Scan *s)
{
    const Batch *B = s->B;
    const Rules *R = B->R;
    const Env *e = s->e;
    Game *g = e->g;
    int seat = e->seat, nu = R->n_units;
    long want = s->want;
    if (e->phase == PH_BURY) {
        const int *hand = g->hand[seat];
        if (want >= B->strike_base)
            return;
        for (int a = 0; a < nu; a++) {
            for (int b = 0; hand[a] && b < nu; b++) {
                if (hand[b] > (a == b) && scan_id(s, a * nu + b)) {
                    s->bury_a = a;
                    s->bury_b = b;
                    s->found = 1;
                }
            }
        }
        return;
    }
    for (int uid = 0; uid < nu; uid++) {
        long end = uid + 1 < nu ? B->deploy_base[uid + 1] : B->num_actions;
        if (want >= 0 && (want < B->deploy_base[uid] || want >= end))
            continue;
        if (g->hand[seat][uid] > 0 && R->plays[uid] <= e->plays_left)
            scan_deploys(s, uid);
    }
    if (g->strikes[seat] > 0 && (want < 0 || want < B->deploy_base[0])) {
        for (int i = 0; i < g->nocc; i++) {
            int c = g->occ[i], index;
            if (SEAT(g->board[c]) != seat && (index = window_index(B, seat, c)) >= 0
                    && scan_id(s, B->strike_base + index)) {
                s->play->kind = EV_STRIKE;
                s->play->cell = c;
                s->play->nhits = 0;
                s->found = 1;
            }
        }
    }
}

/* Writes `seat`'s observation of the env's game into out (obs_size bytes): CardEncoding's
 * board planes, then the numerators of its public and private values. */
static void write_observation(const Batch *B, const Env *e, int seat, uint8_t *out)
{
    const Rules *R = B->R;
    const Game *g = e->g;
    int nu = R->n_units, enemy = 1 - seat;
    int outside[2] = {0, 0};    /* own, enemy */
    memset(out, 0, B->board_len);
    for (int i = 0; i < g->nocc; i++) {
        int c = g->occ[i], code = g->board[c];
        int side = SEAT(code) != seat, index = window_index(B, seat, c);
        if (index < 0)
            outside[side]++;
        else
            out[(size_t)(UID(code) + side * nu) * (size_t)B->cells + (size_t)index] = 1;
    }
    uint8_t *p = out + B->board_len;
    int deciding = e->phase == PH_BURY || e->phase == PH_PLAY;
    const Deck *own = &g->deck[seat];
    *p++ = (uint8_t)(deciding && e->seat == seat);
    *p++ = (uint8_t)(e->phase == PH_BURY);
    *p++ = (uint8_t)(e->phase == PH_PLAY);
    *p++ = (uint8_t)(e->phase == PH_PLAY ? e->plays_left : 0);
    *p++ = (uint8_t)(e->turn < B->max_decisions ? e->turn : B->max_decisions);
    *p++ = (uint8_t)(e->first == seat);
    *p++ = (uint8_t)(e->first == enemy);
    *p++ = (uint8_t)g->strikes[seat];
    *p++ = (uint8_t)g->strikes[enemy];
    int hand[2] = {0, 0};
    for (int u = 0; u < nu; u++) {
        hand[0] += g->hand[seat][u];
        hand[1] += g->hand[enemy][u];
    }
    *p++ = (uint8_t)hand[0];
    *p++ = (uint8_t)hand[1];
    *p++ = (uint8_t)deck_size(own);
    *p++ = (uint8_t)deck_size(&g->deck[enemy]);
    *p++ = (uint8_t)outside[0];
    *p++ = (uint8_t)outside[1];
    for (int u = 0; u < nu; u++)
        *p++ = (uint8_t)g->destroyed[seat][u];
    for (int u = 0; u < nu; u++)
        *p++ = (uint8_t)g->destroyed[enemy][u];
    /* private: hand, deck contents, the cards put under the deck still in it */
    for (int u = 0; u < nu; u++)
        *p++ = (uint8_t)g->hand[seat][u];
    for (int u = 0; u < nu; u++)
        p[u] = (uint8_t)own->pool[u];
    for (int i = own->itop; i < own->ntop; i++)
        p[own->top[i]]++;
    for (int i = own->ibottom; i < own->nbottom; i++)
        p[own->bottom[i]]++;
    p += nu;
    memset(p, 0, 2 * (size_t)nu);
    for (int i = own->ibottom, k = 0; i < own->nbottom && k < 2; i++, k++)
        p[k * nu + own->bottom[i]] = 1;
}

/* Writes the observation and mask rows of env i for its seat to act; 0 when the seat has
 * legal plays but none with an id (the window is too small for this position). */
static int write_rows(const Batch *B, int i)
{
    const Env *e = &B->envs[i];
    uint8_t *mask = (uint8_t *)B->mask.buf + (size_t)i * (size_t)B->num_actions;
    write_observation(B, e, e->seat, (uint8_t *)B->obs.buf + (size_t)i * B->obs_size);
    memset(mask, 0, (size_t)B->num_actions);
    Play p;
    Scan s = {.B = B, .e = e, .mask = mask, .want = -1, .play = &p};
    scan_plays(&s);
    return s.marked > 0;
}

/* ------------------------------------------------------------------ stepping the batch */

/* Finds env i's decision with action id `id` (in e->pending); 0 when it is not legal. */
static int resolve_action(const Batch *B, int i, long id)
{
    Env *e = &B->envs[i];
    if (id < 0 || id >= B->num_actions || (e->phase != PH_BURY && e->phase != PH_PLAY))
        return 0;
    Scan s = {.B = B, .e = e, .want = id, .play = &e->pending};
    scan_plays(&s);
    e->pending_a = s.bury_a;
    e->pending_b = s.bury_b;
    return s.found;
}

/* Applies env i's decision (the resolved one, or a random one), runs the game on to the next
 * decision and, when it ended, writes its reward (and final observation) and starts the next. */
static void step_env(const Batch *B, int i, int random, int with_obs)
{
    Env *e = &B->envs[i];
    Game *g = e->g;
    int seat = e->seat;
    if (random) {
        random_decision(e);
    } else if (e->phase == PH_BURY) {
        bury_pair(g, seat, e->pending_a, e->pending_b);
        next_setup(e);
    } else {
        after_play(e, apply_play(g, seat, &e->pending));
    }
    advance(B, e);
    float *reward = (float *)B->rewards.buf + i;
    uint8_t *terminated = (uint8_t *)B->terminated.buf + i;
    *reward = 0.0f;
    *terminated = 0;
    if (e->phase == PH_OVER && !g->error) {
        int view = e->agent >= 0 ? e->agent : seat;
        *reward = e->res.winner < 0 ? 0.0f : (e->res.winner == view ? 1.0f : -1.0f);
        *terminated = 1;
        if (with_obs)
            write_observation(B, e, view, (uint8_t *)B->final_obs.buf + (size_t)i * B->obs_size);
        env_start(B, e);
    }
    ((int8_t *)B->seats.buf)[i] = (int8_t)e->seat;
}

static int batch_error(const Batch *B)
{
    for (int i = 0; i < B->n_envs; i++) {
        if (B->envs[i].g->error)
            return B->envs[i].g->error;
    }
    return OK;
}

/* Writes every env's observation and mask rows; returns the first env whose seat to act has no
 * play with an id, or -1. */
static int write_all_rows(const Batch *B)
{
    int overflow = -1;
    for (int i = 0; i < B->n_envs; i++) {
        if (!write_rows(B, i) && overflow < 0)
            overflow = i;
    }
    return overflow;
}

/* ------------------------------------------------------------------ the Python interface */

static void batch_destroy(PyObject *capsule)
{
    Batch *B = PyCapsule_GetPointer(capsule, BATCH_NAME);
    if (!B)
        return;
    Py_buffer *bufs[] = {&B->obs, &B->final_obs, &B->mask, &B->rewards, &B->terminated,
                         &B->seats};
    for (int k = 0; k < B->n_buffers; k++)
        PyBuffer_Release(bufs[k]);
    if (B->envs) {
        for (int i = 0; i < B->n_envs; i++) {
            game_free(B->envs[i].g);
            PyMem_RawFree(B->envs[i].trace.v);
            PyMem_RawFree(B->envs[i].prev.v);
        }
        PyMem_Free(B->envs);
    }
    Py_XDECREF(B->rules_capsule);
    PyMem_Free(B);
}

/* The batch, unless another thread is stepping it (reset and step release the GIL). */
static Batch *get_batch(PyObject *capsule)
{
    Batch *B = PyCapsule_GetPointer(capsule, BATCH_NAME);  /* sets TypeError when not ours */
    if (B && B->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the batch is being stepped by another thread");
        return NULL;
    }
    return B;
}

/* Reads the encoding layout (see the top of this file) and checks it against the rules. */
static int read_encoding(Reader *rd, Batch *B)
{
    const Rules *R = B->R;
    int nu = R->n_units;
    if (next_int(rd, 1, 255, &B->window) < 0 || next_int(rd, 0, 255, &B->max_decisions) < 0
            || next_int(rd, 1, 1 << 30, &B->num_actions) < 0)
        return -1;
    if (B->window % 2 == 0 || B->window > R->w) {
        PyErr_SetString(PyExc_ValueError, "the window must be odd and fit the board");
        return -1;
    }
    B->radius = B->window / 2;
    B->cells = B->window * B->window;
    B->strike_base = nu * nu;
    long next = B->strike_base + B->cells;
    for (int u = 0; u < nu; u++) {
        int m;
        if (next_int(rd, 0, 1 << 30, &B->deploy_base[u]) < 0
                || next_int(rd, R->attack[0][u].n, R->attack[0][u].n, &m) < 0)
            return -1;
        B->n_offsets[u] = m;
        for (int k = 0; k < m; k++) {
            if (next_int(rd, 0, m - 1, &B->rank[u][k]) < 0)
                return -1;
        }
        long slots = 0, len = 1;
        for (int k = 0; k <= R->attacks[u]; k++, len *= m) {
            B->slot_start[u][k] = (int)slots;
            slots += len;
        }
        B->n_slots[u] = (int)slots;
        if (B->deploy_base[u] != next) {
            PyErr_SetString(PyExc_ValueError, "the encoding's deploy ids do not fit the rules");
            return -1;
        }
        next += slots * B->cells;
    }
    if (next != B->num_actions) {
        PyErr_SetString(PyExc_ValueError, "the encoding's action count does not fit the rules");
        return -1;
    }
    for (int s = 0; s < 2; s++) {
        if (R->deck_total[s] > 255 || R->strikes[s] > 255) {
            PyErr_SetString(PyExc_ValueError, "a deck or strike count does not fit a byte");
            return -1;
        }
    }
    B->board_len = 2 * (size_t)nu * (size_t)B->cells;
    B->obs_size = B->board_len + N_PUBLIC_FIXED + 2 * (size_t)nu + 4 * (size_t)nu;
    return reader_finish(rd);
}

/* Holds obj's buffer in *view: writable, C-contiguous, `items` items of `itemsize` bytes. */
static int hold_buffer(Batch *B, PyObject *obj, Py_buffer *view, Py_ssize_t items,
                       Py_ssize_t itemsize, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    B->n_buffers++;
    if (view->itemsize != itemsize || view->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes", what, items,
                     itemsize);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(batch_new_doc,
"batch_new(rules, encoding, n_envs, agent, record, obs, final_obs, mask, rewards, terminated,\n"
"          seats) -> batch\n\n"
"N stepped games (see _fastplay_vector.c). agent: the seat played by the caller, -1 for both,\n"
"2 for seat i % 2 in env i.\n"
"The arrays (writable, C-contiguous) are held and written in place: obs and final_obs uint8\n"
"(n_envs, obs_size), mask bool (n_envs, num_actions), rewards float32, terminated bool, seats\n"
"int8 (n_envs,). record: keep each game's events (batch_trace).");

static PyObject *fp_batch_new(PyObject *self, PyObject *args)
{
    PyObject *capsule, *enc, *obs, *final_obs, *mask, *rewards, *terminated, *seats;
    int n_envs, agent, record;
    if (!PyArg_ParseTuple(args, "OOiipOOOOOO", &capsule, &enc, &n_envs, &agent, &record, &obs,
                          &final_obs, &mask, &rewards, &terminated, &seats))
        return NULL;
    const Rules *R = get_rules(capsule);
    if (!R)
        return NULL;
    if (n_envs < 1 || agent < -1 || agent > 2) {
        PyErr_SetString(PyExc_ValueError, "n_envs must be >= 1 and agent -1, 0, 1 or 2");
        return NULL;
    }
    Batch *B = PyMem_Calloc(1, sizeof(Batch));
    if (!B)
        return PyErr_NoMemory();
    B->R = R;
    B->rules_capsule = Py_NewRef(capsule);
    B->n_envs = n_envs;
    B->record = record;
    PyObject *out = PyCapsule_New(B, BATCH_NAME, batch_destroy);
    if (!out) {
        Py_DECREF(capsule);
        PyMem_Free(B);
        return NULL;
    }
    Reader rd;
    if (reader_open(&rd, enc, "encoding") < 0)
        goto fail;
    int rc = read_encoding(&rd, B);
    reader_close(&rd);
    Py_ssize_t n = n_envs;
    if (rc < 0
            || hold_buffer(B, obs, &B->obs, n * (Py_ssize_t)B->obs_size, 1, "obs") < 0
            || hold_buffer(B, final_obs, &B->final_obs, n * (Py_ssize_t)B->obs_size, 1,
                           "final_obs") < 0
            || hold_buffer(B, mask, &B->mask, n * B->num_actions, 1, "mask") < 0
            || hold_buffer(B, rewards, &B->rewards, n, sizeof(float), "rewards") < 0
            || hold_buffer(B, terminated, &B->terminated, n, 1, "terminated") < 0
            || hold_buffer(B, seats, &B->seats, n, 1, "seats") < 0)
        goto fail;
    B->envs = PyMem_Calloc((size_t)n_envs, sizeof(Env));
    if (!B->envs) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < n_envs; i++) {
        if (!(B->envs[i].g = game_new(R))) {
            PyErr_NoMemory();
            goto fail;
        }
        B->envs[i].agent = agent == 2 ? i % 2 : agent;
    }
    return out;
fail:
    Py_DECREF(out);             /* batch_destroy frees what was made */
    return NULL;
}

/* What a batch call answers once its envs are played (the GIL held again): the first env whose
 * observation overflowed (or -1), or the game error one of them met. */
static PyObject *batch_answer(Batch *B, int err, int overflow)
{
    B->busy = 0;
    if (err != OK)
        return raise_game_error(err);
    return PyLong_FromLong(overflow);
}

PyDoc_STRVAR(batch_reset_doc,
"batch_reset(batch, seeds, with_obs)\n\n"
"Starts a fresh game in every env, env i's Rng seeded with seeds[i], and runs it to its first\n"
"decision of a seat the caller plays. with_obs: write the obs and mask rows. Returns the first\n"
"env whose seat to act has no play with an action id (the window is too small), or -1.");

static PyObject *fp_batch_reset(PyObject *self, PyObject *args)
{
    PyObject *capsule, *seeds;
    int with_obs;
    if (!PyArg_ParseTuple(args, "OOp", &capsule, &seeds, &with_obs))
        return NULL;
    Batch *B = get_batch(capsule);
    if (!B)
        return NULL;
    PyObject *fast = PySequence_Fast(seeds, "seeds: expected a sequence of ints");
    if (!fast)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != B->n_envs) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "seeds: expected %d of them", B->n_envs);
        return NULL;
    }
    for (int i = 0; i < B->n_envs; i++) {
        uint64_t seed;
        if (read_seed(PySequence_Fast_GET_ITEM(fast, i), &seed) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        rng_seed(&B->envs[i].g->rng, seed);
    }
    Py_DECREF(fast);
    int overflow = -1, err;
    B->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < B->n_envs; i++) {
        Env *e = &B->envs[i];
        e->g->error = OK;
        env_start(B, e);
        ((float *)B->rewards.buf)[i] = 0.0f;
        ((uint8_t *)B->terminated.buf)[i] = 0;
        ((int8_t *)B->seats.buf)[i] = (int8_t)e->seat;
    }
    err = batch_error(B);
    if (err == OK && with_obs)
        overflow = write_all_rows(B);
    Py_END_ALLOW_THREADS
    return batch_answer(B, err, overflow);
}

PyDoc_STRVAR(batch_step_doc,
"batch_step(batch, actions, with_obs) -> first overflowing env or -1\n\n"
"One decision in every env: actions (int64 buffer of n_envs action ids; ValueError, before\n"
"anything is applied, when one is not legal), or None for a uniformly random legal play in\n"
"each. Writes rewards, terminated and seats, and with_obs the obs, final_obs (rows of the\n"
"envs that ended) and mask rows. A game that ended is started again (SAME_STEP).");

static PyObject *fp_batch_step(PyObject *self, PyObject *args)
{
    PyObject *capsule, *actions;
    int with_obs;
    if (!PyArg_ParseTuple(args, "OOp", &capsule, &actions, &with_obs))
        return NULL;
    Batch *B = get_batch(capsule);
    if (!B)
        return NULL;
    int random = actions == Py_None;
    if (!random) {
        Py_buffer view;
        if (PyObject_GetBuffer(actions, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        if (view.itemsize != 8 || view.len != (Py_ssize_t)B->n_envs * 8 || !view.format
                || (strcmp(view.format, "q") && strcmp(view.format, "l"))) {
            PyBuffer_Release(&view);
            PyErr_Format(PyExc_ValueError, "actions: expected %d int64 action ids", B->n_envs);
            return NULL;
        }
        const int64_t *ids = view.buf;
        for (int i = 0; i < B->n_envs; i++) {
            if (!resolve_action(B, i, (long)ids[i])) {
                PyErr_Format(PyExc_ValueError, "env %d: action id %lld is not a legal play of "
                             "the seat to act", i, (long long)ids[i]);
                PyBuffer_Release(&view);
                return NULL;
            }
        }
        PyBuffer_Release(&view);
    }
    int overflow = -1, err;
    B->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < B->n_envs; i++)
        step_env(B, i, random, with_obs);
    err = batch_error(B);
    if (err == OK && with_obs)
        overflow = write_all_rows(B);
    Py_END_ALLOW_THREADS
    return batch_answer(B, err, overflow);
}

PyDoc_STRVAR(batch_trace_doc,
"batch_trace(batch, i, previous) -> events\n\n"
"The events (flat ints, as random_game's) of env i's game, or of the game before it when\n"
"previous is true. Empty unless the batch records.");

static PyObject *fp_batch_trace(PyObject *self, PyObject *args)
{
    PyObject *capsule;
    int i, previous;
    if (!PyArg_ParseTuple(args, "Oip", &capsule, &i, &previous))
        return NULL;
    Batch *B = get_batch(capsule);
    if (!B)
        return NULL;
    if (i < 0 || i >= B->n_envs) {
        PyErr_SetString(PyExc_IndexError, "no such env");
        return NULL;
    }
    return trace_to_list(previous ? &B->envs[i].prev : &B->envs[i].trace);
}

PyDoc_STRVAR(batch_info_doc,
"batch_info(batch) -> (obs_size, num_actions)");

static PyObject *fp_batch_info(PyObject *self, PyObject *capsule)
{
    Batch *B = get_batch(capsule);
    if (!B)
        return NULL;
    return Py_BuildValue("(ni)", (Py_ssize_t)B->obs_size, B->num_actions);
}
