/* port_map.c - the map as the window port was shown it, and terrain memory.
 *
 * Only print_glyph() feeds this module, so it holds exactly what a tty
 * player has been shown: the displayed glyph per cell (which already layers
 * NetHack's own remembered objects and terrain), plus, per level, the last
 * terrain (cmap) glyph displayed at each cell. Nothing is read from the
 * level structure itself, so undiscovered terrain stays unknown.
 *
 * Rows are encoded as fixed 80-character strings; gameplay responses carry
 * only rows changed since the last response (see docs/PROTOCOL.md). */
#include "hack.h"
#include "nnh_state.h"
#include "port_map.h"
#include "obs_reuse.h"
#include "nnh_bytes.h"

#include <stdint.h>

#define UNSEEN (-1)

static int shown[NNH_ROWS][NNH_COLS];         /* displayed glyph or UNSEEN */
static unsigned char dirty[NNH_ROWS];
/* The visible layer as the host last received it, and as the response being
 * written carries it: a row is resent when its visibility changed, even
 * when nothing in it was redrawn (a wall leaving sight), so the host's copy
 * of every row's visible layer is exact after every full response. */
static char sent_visible[NNH_ROWS][NNH_COLS], writing_visible[NNH_ROWS][NNH_COLS];
static unsigned char creatures[NNH_ROWS];      /* per row: cells showing a creature */
static unsigned char covered[NNH_ROWS];        /* per row: cells showing other than terrain */
/* Counts every write to any level's terrain memory: the trap list is
 * rewritten only when it moved (nnh_map_traps). */
static unsigned long memory_writes;
static int current_ledger = -1;
static short *terrain_memory[NNH_MAX_LEDGERS]; /* per level: cmap glyph or UNSEEN */
static unsigned char *visited[NNH_MAX_LEDGERS];  /* per level: the hero stood here */

static short *memory_for(int ledger)
{
    if (ledger < 0 || ledger >= NNH_MAX_LEDGERS) return NULL;
    if (!terrain_memory[ledger]) {
        int i;
        terrain_memory[ledger] = (short *) malloc(sizeof(short) * NNH_ROWS * NNH_COLS);
        if (!terrain_memory[ledger]) return NULL;
        for (i = 0; i < NNH_ROWS * NNH_COLS; i++) terrain_memory[ledger][i] = UNSEEN;
        memory_writes++;
    }
    return terrain_memory[ledger];
}

/* Forget the displayed map (clear_nhwindow(WIN_MAP), level change). Terrain
 * memory is kept per level. This function can't fail. */
void nnh_map_reset_window(void)
{
    int x, y;
    for (y = 0; y < NNH_ROWS; y++) {
        for (x = 0; x < NNH_COLS; x++) shown[y][x] = UNSEEN;
        dirty[y] = 1;
        creatures[y] = covered[y] = 0;
    }
}

/* Record which level the map window now shows. */
void nnh_map_note_level(int ledger)
{
    int y;
    if (ledger != current_ledger) {
        current_ledger = ledger;
        for (y = 0; y < NNH_ROWS; y++) dirty[y] = 1;
    }
}

static unsigned char *visited_for(int ledger)
{
    if (ledger < 0 || ledger >= NNH_MAX_LEDGERS) return NULL;
    if (!visited[ledger]) visited[ledger] = (unsigned char *) calloc(NNH_ROWS * NNH_COLS, 1);
    return visited[ledger];
}

static int is_floor_glyph(int glyph)
{
    return glyph == cmap_to_glyph(S_room) || glyph == cmap_to_glyph(S_darkroom);
}

/* Terrain under a displayed object or creature, from the player's own
 * #terrain view (which NetHack refuses while hallucinating, stunned or
 * confused, and so do we). It follows the player's memory: a trap found
 * later on a square whose terrain is already remembered (a falling rock
 * trap under a pile) replaces that memory, and so does a door the player
 * saw broken or opened while a creature or an object covers it ("As you
 * kick the door, it crashes open!" with a newt on the square): NetHack
 * maps the terrain under a creature it displays, and #terrain shows it.
 * Only a direct display forgets a remembered trap (#terrain hides a trap
 * under a boulder), and lit and dark floor are the same memory.
 * Returns 1 when the memory changed. */
static int remember_covered_terrain(short *memory, int x, int y)
{
    int glyph, cmap;
    short *cell;
    if (!memory || Hallucination || Stunned || Confusion) return 0;
    cell = &memory[y * NNH_COLS + x];
    glyph = nnh_terrain_glyph(x, y);
    if (!glyph_is_cmap(glyph) || *cell == glyph) return 0;
    cmap = glyph_to_cmap(glyph);
    if (cmap == S_stone || cmap > S_vibrating_square) return 0;
    if (*cell != UNSEEN && glyph_is_trap(*cell) && !glyph_is_trap(glyph)) return 0;
    if (*cell != UNSEEN && is_floor_glyph(*cell) && is_floor_glyph(glyph)) return 0;
    *cell = (short) glyph;
    memory_writes++;
    return 1;
}

/* Refresh the terrain memory under every square that shows something other
 * than terrain (the hero, a creature, an object). NetHack redraws a square
 * only when its glyph changes, so a trap that fires under the hero or a door
 * broken under a newt reaches print_glyph() late or never; this runs at
 * every input boundary, quiet or not, so the memory stays a function of the
 * game's inputs. This function can't fail. */
void nnh_map_refresh_covered(void)
{
    short *memory = memory_for(current_ledger);
    int x, y;
    if (!memory) return;
    for (y = 0; y < NNH_ROWS; y++)
        for (x = 1; x < NNH_COLS && covered[y]; x++) {
            int g = shown[y][x];
            if (g == UNSEEN || g == NO_GLYPH || glyph_is_cmap(g)) continue;
            if (remember_covered_terrain(memory, x, y)) dirty[y] = 1;
        }
}

/* Whether a displayed glyph covers the terrain (nnh_map_refresh_covered). */
static int covers_terrain(int glyph)
{
    return glyph != UNSEEN && glyph != NO_GLYPH && !glyph_is_cmap(glyph);
}

/* Whether a displayed glyph is one nnh_map_entities() reports. */
static int shows_creature(int glyph)
{
    return glyph != UNSEEN && glyph != NO_GLYPH
           && (glyph_is_invisible(glyph) || glyph_is_warning(glyph) || glyph_is_monster(glyph));
}

/* Record one print_glyph() call. Out-of-map coordinates are ignored. The
 * hero's own glyph drawn at the hero's square marks a standing position:
 * runs draw every square they pass, so each one counts as visited. */
void nnh_map_print_glyph(int x, int y, int glyph)
{
    short *memory;
    unsigned char *stood;
    if (x < 0 || x >= NNH_COLS || y < 0 || y >= NNH_ROWS) return;
    if (x == u.ux && y == u.uy && !u.uswallow && (stood = visited_for(current_ledger)) != NULL
        && !stood[y * NNH_COLS + x]) {
        stood[y * NNH_COLS + x] = 1;
        dirty[y] = 1;
    }
    if (shown[y][x] != glyph) {
        /* the per-row count lets each response skip the rows without
           creatures instead of testing all 1,680 cells */
        creatures[y] += shows_creature(glyph) - shows_creature(shown[y][x]);
        covered[y] += covers_terrain(glyph) - covers_terrain(shown[y][x]);
        shown[y][x] = glyph;
        dirty[y] = 1;
    }
    /* Fill at display time, not when a response is written: what the map
     * remembers must not depend on which responses were quiet. */
    if (glyph != NO_GLYPH && !glyph_is_cmap(glyph) && x > 0
        && (memory = memory_for(current_ledger)) != NULL && remember_covered_terrain(memory, x, y))
        dirty[y] = 1;
    if (glyph_is_cmap(glyph) && (memory = memory_for(current_ledger)) != NULL) {
        int cmap = glyph_to_cmap(glyph);
        /* Stone is the absence of a memory, and cmap entries past the
         * vibrating square are transient effects (beams, sparkles, clouds
         * of spell effects), not terrain. */
        if (cmap != S_stone && cmap <= S_vibrating_square
            && memory[y * NNH_COLS + x] != glyph) {
            memory[y * NNH_COLS + x] = (short) glyph;
            memory_writes++;
            dirty[y] = 1;
        }
    }
}

static char kind_of(int glyph)
{
    if (glyph == UNSEEN || glyph == NO_GLYPH) return ' ';
    if (glyph_is_invisible(glyph)) return 'I';
    if (glyph_is_pet(glyph)) return 'P';
    if (glyph_is_detected_monster(glyph)) return 'D';
    if (glyph_is_ridden_monster(glyph)) return 'R';
    if (glyph_is_monster(glyph)) return 'M';
    if (glyph_is_statue(glyph)) return 'S';
    if (glyph_is_body(glyph)) return 'O';
    if (glyph_is_object(glyph))
        return glyph_to_obj(glyph) == BOULDER ? 'B' : 'O';
    if (glyph_is_trap(glyph)) return 'X';
    if (glyph_is_cmap(glyph))
        return glyph_to_cmap(glyph) == S_stone ? ' ' : 'T';
    if (glyph_is_warning(glyph)) return 'W';
    return 'E'; /* explosion, zap beam, swallow border */
}

/* One character per remembered terrain type (docs/PROTOCOL.md has the
 * legend). Indexed by NetHack's cmap symbol, S_stone through S_water;
 * every trap symbol is '^'. */
static const char feature_codes[] =
    " WWWWWWWWWWW" /* stone, 11 wall pieces */
    "dVHvhBT.:##"  /* doorway, open door |/-, closed door |/-, bars, tree, floor, dark floor, corridors */
    "<>lL_g\\s{~ix" /* stairs, ladders, altar, grave, throne, sink, fountain, pool, ice, lava */
    "==rrakw";     /* lowered/raised drawbridges, air, cloud, water */

static char feature_of(int glyph)
{
    int cmap;
    if (glyph == UNSEEN || !glyph_is_cmap(glyph)) return ' ';
    cmap = glyph_to_cmap(glyph);
    if (cmap >= S_arrow_trap && cmap <= S_vibrating_square) return '^';
    if (cmap < (int) sizeof feature_codes - 1) return feature_codes[cmap];
    return ' ';
}

static void mark_and_color(int glyph, int x, int y, char *mark, char *color)
{
    int ch = ' ', col = NO_COLOR;
    unsigned special = 0;
    if (glyph != UNSEEN && glyph != NO_GLYPH)
        (void) mapglyph(glyph, &ch, &col, &special, x, y, 0);
    if (ch < 32 || ch > 126) ch = '?';
    if (col < 0 || col > 15) col = NO_COLOR;
    *mark = (char) ch;
    *color = "0123456789abcdef"[col];
}

/* A row string drawn from an alphabet with nothing to escape (hex colour
 * digits, kind letters, 0/1 flags): written as it is, without the
 * per-byte scan of the escaper. */
static void plain_row_field(nnh_buf *b, const char *name, const char *text)
{
    nnh_buf_char(b, ',');
    nnh_buf_key(b, name);
    nnh_buf_char(b, '"');
    nnh_buf_raw(b, text, NNH_COLS);
    nnh_buf_char(b, '"');
}

/* One 80-character row string of printable ASCII that may hold '"' or
 * '\\' (a mark, a throne's feature): escaped only when it does. */
static void row_field(nnh_buf *b, const char *name, const char *text)
{
    if (nnh_bytes_have_quote(text, NNH_COLS)) {
        nnh_buf_char(b, ',');
        nnh_buf_key(b, name);
        nnh_buf_jstr(b, text);
        return;
    }
    plain_row_field(b, name, text);
}

/* Row y of the visible layer: '1' where cansee(x, y), x = 0 never. Four
 * cells at a time (this runs for all 21 rows at every response): each
 * byte's IN_SIGHT bit moved to bit 0 and added to '0'. */
static void visible_row(int y, char *out)
{
    const char *viz = viz_array[y];
    int x;
    _Static_assert(IN_SIGHT == 2 && NNH_COLS % 4 == 0 && COLNO >= NNH_COLS, "visible_row reads IN_SIGHT 4 cells a time");
    for (x = 0; x < NNH_COLS; x += 4) {
        unsigned int cells, flags;
        memcpy(&cells, viz + x, 4);
        flags = ((cells >> 1) & 0x01010101u) | 0x30303030u;
        memcpy(out + x, &flags, 4);
    }
    out[0] = '0';
}

/* Row y of the visited layer: '1' where the hero stood, else '0' (all '0'
 * without a record). Eight cells at a time: each byte made 1 when non-zero
 * (the high bit of (b & 0x7f) + 0x7f, or b's own) and added to '0'. */
static void visited_row(const unsigned char *stood, char *out)
{
    int x;
    _Static_assert(NNH_COLS % 8 == 0, "visited_row writes 8 cells a time");
    if (!stood) {
        memset(out, '0', NNH_COLS);
        return;
    }
    for (x = 0; x < NNH_COLS; x += 8) {
        uint64_t cells, set;
        memcpy(&cells, stood + x, 8);
        set = ((((cells & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | cells) >> 7) & 0x0101010101010101ull;
        set |= 0x3030303030303030ull;
        memcpy(out + x, &set, 8);
    }
}

/* Append the world object for the current level: every row when full, else
 * the rows changed since nnh_map_mark_sent(). This function can't fail. */
void nnh_map_encode(nnh_buf *b, int full)
{
    char marks[NNH_COLS + 1], colors[NNH_COLS + 1], kinds[NNH_COLS + 1];
    char terrain[NNH_COLS + 1], visible[NNH_COLS + 1], features[NNH_COLS + 1], dummy;
    char stood_here[NNH_COLS + 1];
    short *memory = memory_for(current_ledger);
    unsigned char *stood = visited_for(current_ledger);
    int x, y, first = 1;

    nnh_buf_cstr(b, "{\"encoding\":\"rows-v1\",\"full\":");
    nnh_buf_cstr(b, full ? "true" : "false");
    nnh_buf_cstr(b, ",\"rows\":[");
    for (y = 0; y < NNH_ROWS; y++) {
        visible_row(y, writing_visible[y]);
        if (!full && !dirty[y] && nnh_bytes_equal(writing_visible[y], sent_visible[y], NNH_COLS)) continue;
        memcpy(visible, writing_visible[y], NNH_COLS);
        /* A cell with nothing shown and nothing remembered (most of a map)
           is what the general case below writes for it: the whole row
           starts that way, and only the other cells are drawn. */
        memset(marks, ' ', NNH_COLS);
        memset(kinds, ' ', NNH_COLS);
        memset(terrain, ' ', NNH_COLS);
        memset(features, ' ', NNH_COLS);
        memset(colors, "0123456789abcdef"[NO_COLOR], NNH_COLS);
        visited_row(stood ? stood + y * NNH_COLS : NULL, stood_here);
        for (x = 0; x < NNH_COLS; x++) {
            int g = shown[y][x];
            if (g == UNSEEN && (!memory || memory[y * NNH_COLS + x] == UNSEEN)) continue;
            mark_and_color(g, x, y, &marks[x], &colors[x]);
            kinds[x] = kind_of(g);
            if (memory && memory[y * NNH_COLS + x] != UNSEEN) {
                /* remembered terrain is usually what is shown (a floor,
                   a wall): the same glyph at the same square draws the same
                   mark, so mapglyph() runs once for it */
                if (memory[y * NNH_COLS + x] == g) terrain[x] = marks[x];
                else mark_and_color(memory[y * NNH_COLS + x], x, y, &terrain[x], &dummy);
                features[x] = feature_of(memory[y * NNH_COLS + x]);
            } else {
                terrain[x] = features[x] = ' ';
            }
        }
        marks[NNH_COLS] = colors[NNH_COLS] = kinds[NNH_COLS] = 0;
        terrain[NNH_COLS] = visible[NNH_COLS] = features[NNH_COLS] = stood_here[NNH_COLS] = 0;
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_buf_cstr(b, "{\"y\":");
        nnh_buf_int(b, y);
        row_field(b, "marks", marks);
        plain_row_field(b, "colors", colors);
        plain_row_field(b, "kinds", kinds);
        row_field(b, "terrain", terrain);
        row_field(b, "features", features);
        plain_row_field(b, "visible", visible);
        plain_row_field(b, "visited", stood_here);
        nnh_buf_char(b, '}');
    }
    nnh_buf_cstr(b, "]}");
}

/* The rows written so far are now known to the host. */
void nnh_map_mark_sent(void)
{
    memset(dirty, 0, sizeof dirty);
    memcpy(sent_visible, writing_visible, sizeof sent_visible);
}

/* Remembered traps of the current level with the type their glyph shows
 * ("bear trap", "squeaky board"): what the map draws and farlook names,
 * nothing NetHack has not displayed. [{"x","y","type"}, ...] */
static void write_traps(nnh_buf *b)
{
    short *memory = memory_for(current_ledger);
    int x, y, first = 1;
    nnh_buf_char(b, '[');
    for (y = 0; memory && y < NNH_ROWS; y++)
        for (x = 1; x < NNH_COLS; x++) {
            int g = memory[y * NNH_COLS + x], cmap;
            if (g == UNSEEN || !glyph_is_cmap(g)) continue;
            cmap = glyph_to_cmap(g);
            if (cmap < S_arrow_trap || cmap > S_vibrating_square) continue;
            if (!first) nnh_buf_char(b, ',');
            first = 0;
            nnh_buf_cstr(b, "{\"x\":");
            nnh_buf_int(b, x);
            nnh_buf_cstr(b, ",\"y\":");
            nnh_buf_int(b, y);
            nnh_buf_member_str(b, "type", defsyms[cmap].explanation);
            nnh_buf_char(b, '}');
        }
    nnh_buf_char(b, ']');
}

/* The list is a function of the level's terrain memory alone: written
 * again only after a memory write or on another level (obs_reuse.h; the
 * sanitized twin checks every reuse against a fresh write). */
unsigned long nnh_map_traps(nnh_buf *b)
{
    static nnh_section traps;
    (void) memory_for(current_ledger); /* a first visit's allocation counts as a write */
    nnh_section_begin(&traps);
    nnh_section_key(&traps, &current_ledger, sizeof current_ledger);
    nnh_section_key(&traps, &memory_writes, sizeof memory_writes);
    nnh_section_write(&traps, b, write_traps);
    return nnh_section_serial(&traps);
}

/* Perceived creatures: every displayed monster-class glyph, with the
 * monster type the glyph depicts (an appearance, not an identity) and the
 * attitude NetHack discloses only for a visible, spotted, undisguised
 * creature while the hero is neither hallucinating nor swallowed. */
void nnh_map_entities(nnh_buf *b)
{
    int x, y, first = 1;
    nnh_buf_char(b, '[');
    for (y = 0; y < NNH_ROWS; y++)
        for (x = 1; x < NNH_COLS && creatures[y]; x++) {
            int g = shown[y][x];
            const char *kind;
            int mnum = -1;
            char mark, color;
            struct monst *mtmp;
            if (g == UNSEEN || g == NO_GLYPH) continue;
            if (glyph_is_invisible(g)) kind = "unseen";
            else if (glyph_is_warning(g)) kind = "warning";
            else if (glyph_is_monster(g)) {
                kind = glyph_is_pet(g) ? "ally" : glyph_is_detected_monster(g) ? "detected" : "creature";
                mnum = glyph_to_mon(g);
            } else continue;
            if (x == u.ux && y == u.uy && !u.uswallow) continue; /* the hero */
            mark_and_color(g, x, y, &mark, &color);
            if (!first) nnh_buf_char(b, ',');
            first = 0;
            nnh_buf_cstr(b, "{\"x\":");
            nnh_buf_int(b, x);
            nnh_buf_cstr(b, ",\"y\":");
            nnh_buf_int(b, y);
            nnh_buf_cstr(b, ",\"kind\":");
            nnh_buf_jstr(b, kind);
            nnh_buf_cstr(b, ",\"mark\":");
            {
                char m[2] = { mark, 0 };
                nnh_buf_jstr(b, m);
            }
            if (mnum >= 0 && mnum < NUMMONS && !Hallucination) {
                nnh_buf_cstr(b, ",\"appearance\":");
                nnh_buf_jstr(b, mons[mnum].mname);
            }
            if (mnum >= 0 && !Hallucination && !u.uswallow && cansee(x, y)
                && (mtmp = m_at(x, y)) != NULL && canspotmon(mtmp)
                && mtmp->m_ap_type == M_AP_NOTHING && !mtmp->mundetected) {
                nnh_buf_cstr(b, ",\"attitude\":");
                nnh_buf_jstr(b, nnh_attitude_names[mtmp->mtame ? NNH_TAME : mtmp->mpeaceful ? NNH_PEACEFUL : NNH_HOSTILE]);
            }
            nnh_buf_char(b, '}');
        }
    nnh_buf_char(b, ']');
}
