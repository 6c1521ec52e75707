"""Generate ``engines/octagion/words.txt``: common, family-friendly 8-letter English words.

Run once by a developer (not at bot run time)::

    apt-get install -y scowl        # Debian's SCOWL lists in /usr/share/dict/scowl
    pip install wordfreq            # ranking only; not a runtime dependency
    python scripts/make_octagion_words.py

Source: SCOWL sizes 10, 20 and 35 (english + american), plain lowercase a-z words of 8
letters, ranked by wordfreq's Zipf frequency; a blocklist (stems and whole words) removes
profanity, violence, crime, death, drugs, sex, slurs and other themes unsuited to a family
game; the most frequent ``KEEP`` survivors are written alphabetically, one per line.
"""

from __future__ import annotations

import re
from pathlib import Path

SCOWL_DIR = Path("/usr/share/dict/scowl")
SCOWL_LISTS = [f"{kind}-words.{size}" for kind in ("english", "american") for size in (10, 20, 35)]
OUTPUT = Path(__file__).resolve().parent.parent / "engines" / "octagion" / "words.txt"
KEEP = 3000
MIN_ZIPF = 2.0  # below this a word is too rare for a speed game

# A word containing any of these stems is dropped.
BLOCKED_STEMS = (
    "kill", "murder", "death", "dead", "dying", "suicid", "homicid", "genocid", "massacr", "slaughter",
    "corpse", "coffin", "funeral", "cadaver", "carcass", "mortu", "casualt", "drug", "cocain", "heroin",
    "narcot", "opium", "marijuan", "cannabis", "overdos", "addict", "alcohol", "liquor", "drunk",
    "booze", "tobacco", "cigar", "smoker", "gambl", "casino", "rapist", "abus", "assault", "violen",
    "crimin", "crime", "prison", "jail", "arrest", "convict", "felon", "robber", "thief", "thiev",
    "burglar", "stolen", "steal", "smuggl", "kidnap", "hostage", "terror", "bomb", "explos", "weapon",
    "firearm", "gunfire", "gunman", "gunmen", "shotgun", "rifle", "pistol", "bullet", "missile",
    "warhead", "grenade", "stabb", "shooting", "strangl", "tortur", "execut", "slave", "blood", "bleed",
    "poison", "wound", "injur", "victim", "sex", "porn", "erotic", "nude", "naked", "breast", "penis",
    "vagin", "genital", "sperm", "condom", "orgasm", "virgin", "abort", "pregnan", "prostitut",
    "brothel", "seduc", "mistress", "adulter", "horny", "bitch", "bastard", "damn", "piss", "shit",
    "fuck", "whore", "slut", "nigg", "fag", "dyke", "retard", "idiot", "moron", "stupid", "racis",
    "nazi", "hitler", "jihad", "islam", "christ", "jesus", "satan", "devil", "demon", "cancer",
    "tumour", "tumor", "disease", "infect", "syphil", "herpes", "plague", "vomit", "diarrh", "toilet",
    "urine", "feces", "faeces", "sewage", "scum", "fraud", "bribe", "corrupt", "scandal", "battl",
    "combat", "soldier", "troop", "militar", "invad", "invas", "enemy", "enemies", "destroy", "slay",
    "wreck", "lynch", "rebel", "insurg", "fascis", "communis", "politic", "election", "senator",
    "republic", "democrat", "divorc", "widow", "orphan", "lawsuit", "attorney", "lawyer", "verdict",
    "punish", "pervert", "molest",
)
# Stems above that also occur inside harmless words: those words are allowed back in.
HARMLESS = {"passions", "shelters", "shuttles", "deadline", "deadlines"}
# Whole words that the stems miss but a family game should not ask for.
BLOCKED_WORDS = {
    "abducted", "abductor", "almighty", "ambushed", "ammunition", "apostles", "armament", "arsenals",
    "assassin", "assholes", "atheists", "atrocity", "attacked", "attacker", "attackers", "baptists",
    "baptized", "battered", "beatings", "beheaded", "biblical", "bikinis", "bisexual", "blockade",
    "bloodied", "bondage", "brigades", "buddhist", "bullies", "bullying", "bumhole", "buttocks",
    "cannibal", "captives", "catholic", "catholics", "celibacy", "cemetery", "chastity", "cheating",
    "chokehold", "churches", "cleavage", "clitoris", "cocksure", "collapse", "colonial", "commando",
    "congress", "conquest", "crappier", "crapping", "cremated", "criminal", "crossbow", "crucifix",
    "cruelest", "cruelty", "crusader", "crusades", "culprits", "cursing", "deceased", "demented",
    "dementia", "deported", "depraved", "deranged", "detained", "detonate", "diabetes", "diabetic",
    "dickhead", "diseased", "divinity", "divorced", "drinkers", "drinking", "drowning", "dynamite",
    "epidemic", "epilepsy", "erection", "exploded", "explodes", "fatality", "fighters", "fighting",
    "foreplay", "freaking", "fugitive", "gangster", "gangsters", "garrison", "genocide", "gentiles",
    "governor", "grieving", "grievous", "gruesome", "gunpoint", "gunships", "gunshots", "gunsmith",
    "hangings", "hangover", "hateful", "hatreds", "hellbent", "hellcats", "hellfire", "hellhole",
    "henchman", "heretics", "hijacked", "hijacker", "hindus", "holiness", "homeless", "homicide",
    "hooligan", "horrific", "hysteria", "idolatry", "illegals", "impotent", "indecent", "indicted",
    "infantry", "inhumane", "inmates", "insanity", "insulted", "intimacy", "intimate", "invaders",
    "invading", "jailbird", "jewishly", "jihadist", "junkies", "kissing", "knickers", "leninist",
    "lesbians", "leukemia", "liberals", "lingerie", "lunatics", "lustful", "lustiest", "lutheran",
    "maniacal", "maniacs", "martyred", "marxists", "massacre", "migraine", "militant", "militants",
    "militias", "minister", "ministry", "mistakes", "mormons", "morphine", "mourners", "mourning",
    "murderer", "muslims", "nauseous", "neurotic", "nicotine", "nuclear", "obituary", "occupied",
    "offended", "offender", "oriental", "orthodox", "pandemic", "panties", "paranoia", "paranoid",
    "partisan", "pedophil", "perished", "perverse", "placenta", "poisoned", "polygamy", "preached",
    "preacher", "predator", "pregnant", "presbyte", "prisoner", "prophecy", "prophets", "punching",
    "racially", "rapeseed", "rapidity", "regiment", "religion", "republic", "revolver", "rioters",
    "rioting", "riotous", "romantic", "roulette", "sabotage", "sadistic", "schizoid", "screamed",
    "screwing", "scripture", "sedative", "seducing", "seizures", "seminary", "senators", "shelling",
    "shooters", "shooting", "shootout", "shrapnel", "sickness", "skirmish", "slapping", "slashing",
    "smacking", "smallpox", "smoking", "sniffing", "snorting", "sorrows", "spanking", "spiteful",
    "spitting", "squadron", "stalkers", "stalking", "stinking", "stripped", "stripper", "strippers",
    "stripping", "suicidal", "swastika", "swearing", "syndrome", "terminal", "theology", "threated",
    "threaten", "torpedoe", "torpedos", "tortured", "tragedies", "traitors", "trespass", "trolling",
    "underwear", "unionist", "uprising", "vampires", "vandalism", "vandals", "vengeful", "venomous",
    "villains", "violated", "violates", "violator", "warfare", "warheads", "warlords", "warplane",
    "warriors", "warships", "whipping", "whiskeys", "whiskies", "wretched",
}


def load_candidates() -> set[str]:
    words: set[str] = set()
    for name in SCOWL_LISTS:
        text = (SCOWL_DIR / name).read_bytes().decode("latin-1")
        words.update(line.strip() for line in text.splitlines() if re.fullmatch(r"[a-z]{8}", line.strip()))
    return words


def family_friendly(word: str) -> bool:
    if word in BLOCKED_WORDS:
        return False
    if word in HARMLESS:
        return True
    return not any(stem in word for stem in BLOCKED_STEMS)


def main() -> None:
    from wordfreq import zipf_frequency  # generation-time only

    ranked = sorted(
        ((zipf_frequency(word, "en"), word) for word in load_candidates() if family_friendly(word)),
        reverse=True,
    )
    kept = sorted(word for zipf, word in ranked[:KEEP] if zipf >= MIN_ZIPF)
    OUTPUT.write_text("\n".join(kept) + "\n", encoding="ascii")
    print(f"wrote {len(kept)} words to {OUTPUT}")


if __name__ == "__main__":
    main()
