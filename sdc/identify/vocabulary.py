"""The words that tell a sensitive column from a demographic one, documented and extendable.

:func:`sdc.identify.identify` reads a column's normalised name (``SexNumPartnLife`` ->
``sex_num_partn_life``) word by word. A name holding a **sensitive** word (health, body and
laboratory measurements, sexual behaviour, drug use, finances, beliefs; GDPR Art. 9 and the
usual survey topics) suggests a sensitive variable; otherwise a name holding a **demographic**
word (sex, age band, race, region, marital status, education, occupation, ...) suggests a
quasi-identifier an intruder may know. Sensitive words are read first, so ``SexNumPartnLife``
and ``SameSex`` are sensitive although they hold the demographic word ``sex``.

Each entry is a regular expression for one whole word (or several words joined by ``_``);
a trailing number is allowed (``race`` matches ``Race1``). Extend the lists with
``identify(data, vocabulary={"sensitive": ["tribe"], "demographic": ["parish"]})`` or
``sdc identify --sensitive-word tribe --demographic-word parish``; plain words are matched
literally, a ``*`` at the end of a word matches any ending (``partn*``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Vocabulary", "SENSITIVE_WORDS", "DEMOGRAPHIC_WORDS", "BODY_WORDS", "vocabulary_of"]

#: Health, body and laboratory measurements, sexual behaviour, drug use, finances, beliefs.
SENSITIVE_WORDS: tuple[str, ...] = (
    r"diagnos[a-z0-9]*", "dx", r"disease[a-z]*", r"icd\d*", "condition", "conditions", "illness", "disorder",
    "symptoms?", r"medicat[a-z]*", "medicine", "drugs?", "hard_drugs", "prescription", "prescribed", "treatment",
    "therapy", "procedure", "surgery", "hiv", "aids", "hepatitis", "cancer", "tumou?r", "oncology",
    r"pregnan[a-z]*", "abortion", "fertility", r"contracept[a-z]*", "babies", "baby", "mental", "ment",
    r"psych[a-z]*", r"depress[a-z]*", "anxiety", "suicide", "little_interest", r"addict[a-z]*", r"alcohol[a-z]*",
    "smoking", "smoker", "smokes", "smoke", "tobacco", "substance", r"marij[a-z]*", "cannabis", "genetic", "genes?",
    "genotype", "dna", r"chol[a-z]*", "glucose", "hba1c", "bmi", "bp", "systolic", "diastolic", "blood_pressure",
    "heart_rate", "pulse", "testosterone", r"urine[a-z]*", "diabetes", "hlth", "health_gen", "lab",
    "lab_result", "test_result", "outcome", "mortality", "cause_of_death", "disability", "income", "poverty",
    "salary", "wages?", "earnings", "debt", "wealth", "religion", "religious", "belief", "beliefs", "political",
    "trade_union", r"sexual[a-z]*", "orientation", "sex_life", "sex_ever", "sex_age", r"sex_num[a-z_]*",
    r"partn[a-z]*", "same_sex", "criminal", "conviction", "offen[cs]e", "arrests?", "hospitali[sz]ation",
    "vaccinat[a-z]*", "allerg[a-z]*", r"comorbidit[a-z]*", "severity", "hiv_status")
#: Demographic attributes an intruder may know: quasi-identifiers.
DEMOGRAPHIC_WORDS: tuple[str, ...] = (
    "sex", "gender", "region", "area", "province", "state", "country", "nationality", "citizenship",
    r"ethnic[a-z]*", "race", "marital", "marital_status", "married", "civil_status", "education", "edu", "educ",
    "degree", "qualification", r"occup[a-z]*", "job", "profession", "employment", "employed", "employer",
    "industry", "language", "household_size", "hh_size", "children", "n_children", "relation", "relationship",
    "rel_head", "urban", "rural", "urbanity", "residence", "birthplace", "country_of_birth", "place_of_birth",
    "height", "year", "occupation", r"work_?class", "employment_status", "age_decade", "age_group", "age_band",
    "age_cat", "age_class", "home_own", "home_rooms", "work")
#: Words saying a number is a body measurement (a weight in kg is not a sampling weight).
BODY_WORDS: tuple[str, ...] = (
    "kg", "kgs", "kilo", "kilos", "kilograms?", "lb", "lbs", "pounds?", "grams?", "g", "oz", "body", "body_weight",
    "bodyweight", "birth_weight", "birthweight", "mass", "bmi", "height", "ht", "cm")


def _compile(words: Iterable[str]) -> re.Pattern[str]:
    return re.compile(r"(?:^|_)(?:" + "|".join(words) + r")\d*(?:_|$)")


def _user_word(w: object, kind: str) -> str:
    if not isinstance(w, str) or not w.strip():
        raise ValueError(f"`vocabulary[{kind!r}]` must hold words; got {w!r}.")
    text = re.sub(r"[^0-9a-zA-Z*]+", "_", w.strip().lower()).strip("_")
    if not text or text == "*":
        raise ValueError(f"`vocabulary[{kind!r}]` must hold words; got {w!r}.")
    star = text.endswith("*")
    return re.escape(text.rstrip("*")) + ("[a-z0-9_]*" if star else "")


@dataclass(frozen=True)
class Vocabulary:
    """The sensitive and demographic words (regular expressions of whole words), compiled."""

    sensitive: tuple[str, ...] = SENSITIVE_WORDS
    demographic: tuple[str, ...] = DEMOGRAPHIC_WORDS
    body: tuple[str, ...] = BODY_WORDS
    _rx: dict = field(default_factory=dict, repr=False, compare=False)

    def pattern(self, kind: str) -> re.Pattern[str]:
        if kind not in self._rx:
            self._rx[kind] = _compile(getattr(self, kind))
        return self._rx[kind]

    def word(self, kind: str, name: str) -> str | None:
        """The word of list `kind` that the normalised `name` holds (None: none)."""
        m = self.pattern(kind).search(name)
        return None if m is None else m.group(0).strip("_")

    def is_sensitive(self, name: str) -> bool:
        return bool(self.pattern("sensitive").search(name))

    def is_demographic(self, name: str) -> bool:
        return bool(self.pattern("demographic").search(name))

    def is_body(self, name: str) -> bool:
        return bool(self.pattern("body").search(name))

    def extended(self, more: Mapping[str, Iterable[str]]) -> Vocabulary:
        """This vocabulary with the user's words added (``{"sensitive": [...], "demographic": [...]}``)."""
        unknown = [k for k in more if k not in ("sensitive", "demographic", "body")]
        if unknown:
            raise ValueError(f"`vocabulary` has unknown list {unknown[0]!r}; use 'sensitive', 'demographic' or "
                             "'body'.")
        add = {}
        for k, words in more.items():
            if isinstance(words, str) or not isinstance(words, Iterable):
                raise TypeError(f"`vocabulary[{k!r}]` must be a list of words; got {words!r}.")
            add[k] = getattr(self, k) + tuple(_user_word(w, k) for w in words)
        return Vocabulary(**{**{"sensitive": self.sensitive, "demographic": self.demographic, "body": self.body},
                             **add})


DEFAULT = Vocabulary()


def vocabulary_of(value: object) -> Vocabulary:
    """A :class:`Vocabulary` from None (the default), a Vocabulary or a mapping of extra words."""
    if value is None:
        return DEFAULT
    if isinstance(value, Vocabulary):
        return value
    if isinstance(value, Mapping):
        return DEFAULT.extended(value)
    raise TypeError(f"`vocabulary` must be a mapping such as {{'sensitive': ['tribe']}}; got {value!r}.")
