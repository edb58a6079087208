/* obs_knowledge.c - observation.knowledge: what the player knows beyond
 * the map.
 *
 *   spells        the spell menu (+): name, level, school, Fail % and the
 *                 Retention column's text. Unknown spells never appear and
 *                 no memory counter is disclosed.
 *   skills        #enhance: every skill the menu lists (restricted ones are
 *                 not listed), its rank as printed, and its marker as
 *                 advancement state: available (can advance now),
 *                 needsExperience (would, given more skill slots), peaked,
 *                 or practice. No practice counter is disclosed.
 *   levels        #overview: the remembered levels it would list, with
 *                 their feature counts as NetHack keeps them (2-bit
 *                 counters: 3 means three or more) and the player's own
 *                 annotation. Counts are NetHack's as of its last overview
 *                 recalculation (on leaving a level, or #overview).
 *   conduct       the counters #conduct reads.
 *   achievements  bell, book, candelabrum, Gehennom, Medusa, ascension.
 *                 The Amulet, the Mines' End luckstone and the Sokoban
 *                 prize are withheld: touching them would tell a real
 *                 Amulet from a fake, or which gray stone is the prize.
 *
 * Everything is read; nothing is recalculated, so writing this draws no
 * random number and changes nothing. */
#include "hack.h"
#include "nnh_state.h"
#include "nnh_knowledge.h"
#include "nnh_nethack.h"
#include "obs_reuse.h"

static const char *const advancement[] = { "practice", "available", "needsExperience", "peaked" };

int nnh_spell_index(const char *name)
{
    int i;
    for (i = 0; i < MAXSPELL && spl_book[i].sp_id != NO_SPELL; i++)
        if (!strcmpi(OBJ_NAME(objects[spl_book[i].sp_id]), name)) return i;
    return -1;
}

static void spells(nnh_buf *b)
{
    char retention[BUFSZ];
    int i;
    nnh_buf_cstr(b, "\"spells\":[");
    for (i = 0; i < MAXSPELL && spl_book[i].sp_id != NO_SPELL; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_cstr(b, "{\"name\":");
        nnh_buf_jstr(b, OBJ_NAME(objects[spl_book[i].sp_id]));
        nnh_buf_member_int(b, "level", spl_book[i].sp_lev);
        nnh_buf_member_str(b, "school", nnh_spell_school(i));
        nnh_buf_member_int(b, "failure", nnh_spell_failure(i));
        nnh_buf_member_str(b, "retention", nnh_spell_retention(i, retention));
        nnh_buf_char(b, '}');
    }
    nnh_buf_char(b, ']');
}

static void skills(nnh_buf *b)
{
    char rank[BUFSZ];
    int i, state, first = 1;
    nnh_buf_cstr(b, ",\"skills\":[");
    for (i = P_FIRST_WEAPON; i < P_NUM_SKILLS; i++) {
        if ((state = nnh_skill_state(i)) < 0) continue;
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_buf_cstr(b, "{\"name\":");
        nnh_buf_jstr(b, skill_name(i));
        nnh_buf_member_str(b, "rank", skill_level_name(i, rank));
        nnh_buf_member_str(b, "advance", advancement[state]);
        nnh_buf_char(b, '}');
    }
    nnh_buf_char(b, ']');
}

static void levels(nnh_buf *b)
{
    static const char *const names[] = { "fountains", "sinks", "altars", "thrones", "graves",
                                         "trees", "shops", "temples" };
    mapseen *m;
    int first = 1, i;
    nnh_buf_cstr(b, ",\"levels\":[");
    for (m = mapseenchn; m; m = m->next) {
        int counts[8];
        char levelid[32];
        if (m->flags.forgot || !nnh_mapseen_listed(m)) continue;
        counts[0] = m->feat.nfount, counts[1] = m->feat.nsink, counts[2] = m->feat.naltar;
        counts[3] = m->feat.nthrone, counts[4] = m->feat.ngrave, counts[5] = m->feat.ntree;
        counts[6] = m->feat.nshop, counts[7] = m->feat.ntemple;
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        Sprintf(levelid, "d%d-l%d", (int) m->lev.dnum, (int) m->lev.dlevel);
        nnh_buf_cstr(b, "{\"levelId\":");
        nnh_buf_jstr(b, levelid);
        nnh_buf_member_str(b, "dungeon", dungeons[m->lev.dnum].dname);
        nnh_buf_member_int(b, "depth", depth(&m->lev));
        if (m->custom) nnh_buf_member_str(b, "annotation", m->custom);
        for (i = 0; i < 8; i++)
            if (counts[i]) nnh_buf_member_int(b, names[i], counts[i]);
        nnh_buf_char(b, '}');
    }
    nnh_buf_char(b, ']');
}

static void conduct(nnh_buf *b)
{
    const struct u_conduct *c = &u.uconduct;
    nnh_buf_cstr(b, ",\"conduct\":{\"food\":");
    nnh_buf_int(b, c->food);
    nnh_buf_member_int(b, "unvegan", c->unvegan);
    nnh_buf_member_int(b, "unvegetarian", c->unvegetarian);
    nnh_buf_member_int(b, "gnostic", c->gnostic);
    nnh_buf_member_int(b, "weaponHits", c->weaphit);
    nnh_buf_member_int(b, "kills", c->killer);
    nnh_buf_member_int(b, "literacy", c->literate);
    nnh_buf_member_int(b, "objectPolymorphs", c->polypiles);
    nnh_buf_member_int(b, "selfPolymorphs", c->polyselfs);
    nnh_buf_member_int(b, "wishes", c->wishes);
    nnh_buf_member_int(b, "artifactWishes", c->wisharti);
    nnh_buf_char(b, '}');
}

static void achievements(nnh_buf *b)
{
    const char *got[6];
    int n = 0, i;
    if (u.uachieve.bell) got[n++] = "bell";
    if (u.uachieve.book) got[n++] = "book";
    if (u.uachieve.menorah) got[n++] = "candelabrum";
    if (u.uachieve.enter_gehennom) got[n++] = "enteredGehennom";
    if (u.uachieve.killed_medusa) got[n++] = "killedMedusa";
    if (u.uachieve.ascended) got[n++] = "ascended";
    nnh_buf_cstr(b, ",\"achievements\":[");
    for (i = 0; i < n; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_jstr(b, got[i]);
    }
    nnh_buf_char(b, ']');
}

static void knowledge_text(nnh_buf *b)
{
    nnh_buf_char(b, '{');
    spells(b);
    skills(b);
    levels(b);
    conduct(b);
    achievements(b);
    nnh_buf_char(b, '}');
}

/* Every value the knowledge text is written from, in writing order: the
 * spell menu's columns as computed, each skill's state and rank, each
 * listed level's identity, counts and annotation, conduct, achievements. */
static void knowledge_key(nnh_section *s)
{
    char retention[BUFSZ];
    mapseen *m;
    int i, v[12];
    for (i = 0; i < MAXSPELL && spl_book[i].sp_id != NO_SPELL; i++) {
        v[0] = spl_book[i].sp_id, v[1] = spl_book[i].sp_lev, v[2] = nnh_spell_failure(i);
        nnh_section_key(s, v, 3 * sizeof *v);
        nnh_section_key_str(s, nnh_spell_school(i));
        nnh_section_key_str(s, nnh_spell_retention(i, retention));
    }
    for (i = P_FIRST_WEAPON; i < P_NUM_SKILLS; i++) {
        v[0] = nnh_skill_state(i), v[1] = P_SKILL(i);
        nnh_section_key(s, v, 2 * sizeof *v);
    }
    for (m = mapseenchn; m; m = m->next) {
        v[0] = m->lev.dnum, v[1] = m->lev.dlevel, v[2] = m->flags.forgot;
        v[3] = nnh_mapseen_listed(m), v[4] = m->feat.nfount, v[5] = m->feat.nsink;
        v[6] = m->feat.naltar, v[7] = m->feat.nthrone, v[8] = m->feat.ngrave;
        v[9] = m->feat.ntree, v[10] = m->feat.nshop, v[11] = m->feat.ntemple;
        nnh_section_key(s, v, sizeof v);
        nnh_section_key_str(s, m->custom);
    }
    nnh_section_key(s, &u.uconduct, sizeof u.uconduct);
    nnh_section_key(s, &u.uachieve, sizeof u.uachieve);
}

unsigned long nnh_knowledge_write(nnh_buf *b)
{
    static nnh_section knowledge;
    nnh_section_begin(&knowledge);
    knowledge_key(&knowledge);
    nnh_section_write(&knowledge, b, knowledge_text);
    return nnh_section_serial(&knowledge);
}
