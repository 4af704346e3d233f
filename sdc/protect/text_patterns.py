"""Identifiers inside text: the patterns that find them and the placeholders that replace them.

One table serves both sides: :mod:`sdc.identify.hipaa` counts, per Safe Harbor category, the
records whose text holds a match (free-text notes, neutral columns), and
:func:`sdc.protect.redact.redact` replaces every match with a typed placeholder. Each entry is
(Safe Harbor category, placeholder, what it finds, pattern), searched in this order (an
e-mail before the URL inside it, an SSN before a telephone number):

========  ===============  ==================================================================
category  placeholder      finds
========  ===============  ==================================================================
F         ``[EMAIL]``      e-mail addresses
N         ``[URL]``        ``http(s)://``, ``ftp://`` and ``www.`` addresses
O         ``[IP]``         IPv4 addresses (four octets 0-255)
G         ``[SSN]``        social security numbers ``ddd-dd-dddd`` (not 000, 666, 9xx)
H         ``[MRN]``        medical record numbers after ``MRN``, ``medical record (no|number|#)``
D         ``[PHONE]``      telephone numbers: ``(ddd) ddd-dddd``, ``ddd-ddd-dddd``, ``+1 ...``
C         ``[DATE]``       dates: ``2021-03-04``, ``03/04/2021``, ``4 March 2021``, ``March 4, 2021``
B         ``[ZIP]``        ZIP codes after a state abbreviation or ``ZIP``: ``MA 02139``, ``zip 10001``
A         ``[NAME]``       a title and a capitalised word (``Dr. Smith``, ``Mrs Jones``), or a
                           first name of :data:`FIRST_NAMES` and a capitalised word, or a
                           capitalised word and a surname of :data:`SURNAMES`
========  ===============  ==================================================================

The name lists are short (the commonest US first names and surnames, written for sdc): they
find the usual names, not every name; a steward still reads the text.
"""

from __future__ import annotations

import re

__all__ = ["TEXT_PATTERNS", "FIRST_NAMES", "SURNAMES", "PLACEHOLDERS", "TextPattern", "name_words"]

FIRST_NAMES: frozenset[str] = frozenset("""
James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony Mark
Donald Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy Ronald Edward Jason Jeffrey Ryan Jacob Gary
Nicholas Eric Jonathan Stephen Larry Justin Scott Brandon Benjamin Samuel Gregory Alexander Frank Patrick Raymond
Jack Dennis Jerry Tyler Aaron Jose Adam Nathan Henry Douglas Zachary Peter Kyle Walter Ethan Jeremy Harold Keith
Christian Roger Noah Gerald Carl Terry Sean Austin Arthur Lawrence Jesse Dylan Bryan Joe Jordan Billy Bruce Albert
Willie Gabriel Logan Alan Juan Wayne Roy Ralph Randy Eugene Vincent Russell Elijah Louis Bobby Philip Johnny
Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Betty Margaret Sandra Ashley
Kimberly Emily Donna Michelle Carol Amanda Dorothy Melissa Deborah Stephanie Rebecca Sharon Laura Cynthia Kathleen
Amy Angela Shirley Anna Brenda Pamela Emma Nicole Helen Samantha Katherine Christine Debra Rachel Carolyn Janet
Catherine Maria Heather Diane Ruth Julie Olivia Joyce Virginia Victoria Kelly Lauren Christina Joan Evelyn Judith
Megan Andrea Cheryl Hannah Jacqueline Martha Gloria Teresa Ann Sara Madison Frances Kathryn Janice Jean Abigail
Alice Judy Sophia Grace Denise Amber Doris Marilyn Danielle Beverly Isabella Theresa Diana Natalie Brittany
Charlotte Marie Kayla Alexis Lori
""".split())
SURNAMES: frozenset[str] = frozenset("""
Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker
Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell
Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy
Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson
Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross
Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez
Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant
Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald
Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter
Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose
Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner
Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott
Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston
Matthews Pena Richards Contreras Willis Carpenter Lawrence Sandoval
""".split())
_STATES = ("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH "
           "OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR").split()
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_CAP = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"


def _alt(words: frozenset[str]) -> str:
    """The words as one alternation shaped as a trie (``Ann(?:a)?``): Python's regular
    expressions try an alternation in order, so a flat list of 450 names is five times slower."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        alts = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch != ""]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return "(?:" + build(trie) + ")"


class TextPattern:
    """One kind of identifier in text: its Safe Harbor category, placeholder, what, pattern."""

    __slots__ = ("code", "placeholder", "what", "regex")

    def __init__(self, code: str, placeholder: str, what: str, pattern: str, flags: int = 0) -> None:
        self.code, self.placeholder, self.what = code, placeholder, what
        self.regex = re.compile(pattern, flags)


TEXT_PATTERNS: tuple[TextPattern, ...] = (
    TextPattern("F", "[EMAIL]", "an e-mail address",
                r"\b[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"),
    TextPattern("N", "[URL]", "a URL", r"\b(?:(?:https?|ftp)://|www\.)[^\s<>\"']+", re.IGNORECASE),
    TextPattern("O", "[IP]", "an IP address",
                r"\b(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\b"),
    TextPattern("G", "[SSN]", "a social security number", r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b"),
    TextPattern("H", "[MRN]", "a medical record number",
                r"\b(?:MRN|medical record(?: no\.?| number| #)?|med\. rec\.(?: no\.?)?)\s*[:#]?\s*[A-Z0-9][A-Z0-9-]{3,}\b",
                re.IGNORECASE),
    TextPattern("D", "[PHONE]", "a telephone number",
                r"(?:\+1[\s.-]?)?(?:\(\d{3}\)\s?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b"),
    TextPattern("C", "[DATE]", "a date",
                r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2} " + _MONTH + r",? \d{4}|"
                + _MONTH + r" \d{1,2},? \d{4})\b"),
    TextPattern("B", "[ZIP]", "a ZIP code",
                r"(?:\b(?:" + "|".join(_STATES) + r")\s+\d{5}(?:-\d{4})?\b|\b[Zz][Ii][Pp](?:\s*code)?\s*:?\s*\d{5}"
                r"(?:-\d{4})?\b)"),
    TextPattern("A", "[NAME]", "a personal name",
                r"\b(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+" + _CAP + r"|" + _alt(FIRST_NAMES) + r"\s+" + _CAP + r"|"
                + _CAP + r"\s+" + _alt(SURNAMES) + r")\b"),
)
PLACEHOLDERS: dict[str, str] = {p.code: p.placeholder for p in TEXT_PATTERNS}
_NAME_WORDS = FIRST_NAMES | SURNAMES


def name_words() -> frozenset[str]:
    """The bundled first names and surnames."""
    return _NAME_WORDS
