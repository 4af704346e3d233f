"""The detectors of the Safe Harbor checklist (:mod:`sdc.identify.hipaa`): what a column's
name says (:data:`NAME_RULES`: the category, what the name says, and words that veto the
match) and what its values look like (:data:`VALUE_RULES`: a test on the sampled distinct
values, stripped strings, returning a mask).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["NAME_RULES", "VALUE_RULES", "NameRule", "full_match", "PERSON"]


# ---------------------------------------------------------------------------------------------
# Column names. Each rule: the category, what the name says, and words that veto the match.

def _words(*alternatives: str) -> re.Pattern[str]:
    """A pattern matching any alternative as whole words of a normalised name."""
    return re.compile(r"(?:^|_)(?:" + "|".join(alternatives) + r")(?:_|$)")


_IDW = r"(?:_?(?:id|ids|identifier|number|numbers|num|no|nr|nbr|code|key))"  # "...-number" endings


@dataclass(frozen=True, slots=True)
class NameRule:
    code: str
    what: str
    pattern: re.Pattern[str]
    veto: re.Pattern[str] | None = None
    number: bool = False  # an identifying number: not if the column holds <= 2 distinct values


NAME_RULES: tuple[NameRule, ...] = (
    NameRule("A", "a personal name",
              _words(r"(?:first|last|middle|given|family|full|sur|fore|maiden|nick|patient|person|mother|father|"
                     r"spouse|partner|child|relative|kin|contact|member|client|customer|subject|participant)?_?names?",
                     "fname", "lname", "initials"),
              _words("drug", "drugs", "medication", "medicine", "product", "brand", "file", "filename", "hospital",
                     "clinic", "facility", "site", "centre", "center", "company", "employer_type", "org",
                     "organisation", "organization", "test", "lab", "street", "road", "city", "town", "county",
                     "country", "state", "region", "place", "variable", "field", "column", "dataset", "study",
                     "event", "item", "procedure", "diagnosis", "disease", "device", "vaccine", "manufacturer",
                     "pharmacy", "school", "ward", "unit", "host", "domain", "species", "gene", "code", "type",
                     "label", "category", "group", "team", "department", "plan", "insurer", "provider_type", "user",
                     "login", "screen", "host_name", "domain_name"),
              number=True),
    NameRule("B", "a street address",
              _words("address", "addr", "address_line", r"address\d", "street", "street_address", "house_number",
                     "housenumber", "po_box", "pobox"),
              _words("email", "e_mail", "mail", "ip", "mac", "web", "url")),
    NameRule("B", "a ZIP or postal code",
              _words("zip", "zipcode", "zip_code", r"zip\d", "postcode", "post_code", "postal", "postal_code",
                     "postalcode", "plz", "zcta")),
    NameRule("B", "a city, county, precinct or similar area",
              _words("city", "town", "village", "county", "municipality", "municipal", "borough", "parish",
                     "precinct", "neighbourhood", "neighborhood", "suburb", "locality", "census_tract", "tract",
                     "block_group", "geocode", "fips", "township", "commune", "gemeente"),
              _words("size", "type", "population", "pop", "count", "category", "class", "rank", "urban", "rural",
                     "n", "kind", "level")),
    NameRule("B", "geographic coordinates",
              _words("latitude", "longitude", "lat", "lon", "lng", "coords", "coordinates", "gps", "geolocation",
                     "geo_location", "easting", "northing")),
    NameRule("C", "a date",
              _words("date", "dates", "dt", "dob", "dod", "doa", "dos", "birthdate", "birthday", "birth", "born",
                     "admission", "admit", "admitted", "discharge", "discharged", "death", "died", "deceased",
                     "visit", "encounter", "appointment", "onset", "datetime", "timestamp", "yob", "year_of_birth",
                     "birth_year", "birthyear"),
              _words("weight", "order", "place", "country", "city", "state", "rank", "cause", "cause_of",
                     "type", "reason", "status", "flag", "count", "number", "length", "duration", "days",
                     "weeks", "months", "location", "province", "region", "hospital", "site")),
    NameRule("C", "an age", _words("age", "ages", "age_years", "age_yrs", "agey", r"age_at_[a-z0-9_]+"),
              _words("group", "band", "class", "cat", "category", "range", "months_since", "decade", "decades")),
    NameRule("E", "a fax number", _words("fax", "facsimile", "fax_number", "fax_no")),
    NameRule("D", "a telephone number",
              _words("phone", "telephone", "tel", "mobile", "cell", "cellphone", "cell_phone", "landline",
                     "phone_number", "msisdn", "contact_number", "mobile_number", "home_phone", "work_phone"),
              _words("fax", "type", "model", "brand", "owner", "owns", "use", "usage", "has", "count")),
    NameRule("F", "an e-mail address",
              _words("email", "e_mail", "mail", "email_address", "emailaddress", "mail_address")),
    NameRule("G", "a social security number",
              _words("ssn", "ss_number", "social_security", "social_security_number", "socsec", "socialsecurity",
                     "ss_no"), number=True),
    NameRule("H", "a medical record number",
              _words("mrn", "medical_record" + _IDW + "?", "med_rec" + _IDW + "?", "medrec", "chart" + _IDW,
                     "hospital" + _IDW, "patient_number", "patient_no", "hosp_no", "nhs" + _IDW + "?",
                     "emr" + _IDW, "ehr" + _IDW, "mr_number", "record_number", "case_number", "chi_number"),
              number=True),
    NameRule("I", "a health plan beneficiary number",
              _words(r"(?:health_?plan|plan|insurance|insurer|insured|medicare|medicaid|policy|member|membership|"
                     r"beneficiary|subscriber|group)" + _IDW, "hicn", "mbi", "beneficiary", "subscriber",
                     "policy_holder", "medicaid", "medicare_number"),
              _words("type", "status", "kind", "category", "flag", "name", "has"), number=True),
    NameRule("J", "an account number",
              _words(r"(?:account|acct|acc|bank_account|bank|card|credit_card|debit_card|cc|billing)" + _IDW,
                     "iban", "account_number", "card_number", "credit_card", "routing_number", "sort_code",
                     "bic", "swift"),
              _words("type", "status", "kind", "category", "flag", "has", "balance", "amount"), number=True),
    NameRule("L", "a vehicle identifier or licence plate",
              _words("vin", "vehicle" + _IDW + "?", "license_plate", "licence_plate", "plate", "plate_number",
                     "number_plate", "registration_plate", "car_registration", "reg_plate", "vehicle_registration"),
              _words("type", "make", "model", "colour", "color", "count", "owner", "owns", "has"), number=True),
    NameRule("K", "a certificate or licence number",
              _words(r"(?:licen[cs]e|certificate|cert|permit|passport|driver_?s?_?licen[cs]e|dea|npi)" + _IDW + "?",
                     "dln", "driving_licence", "driving_license"),
              _words("plate", "type", "status", "kind", "category", "flag", "has", "holder", "expiry", "expires",
                     "date", "valid", "year", "country", "issuer"), number=True),
    NameRule("M", "a device identifier or serial number",
              _words(r"(?:device|implant|pacemaker|pump|monitor|sensor|meter|wearable)" + _IDW,
                     r"serial" + _IDW + "?", "serial_number", "imei", "meid", "udi", "udid", "mac_address",
                     "macaddress", "device_serial"),
              _words("type", "model", "make", "kind", "category", "count", "has"), number=True),
    NameRule("N", "a URL",
              _words("url", "uri", "urls", "website", "web_site", "homepage", "home_page", "webpage", "web_page",
                     "web_address", "link", "profile_url", "hyperlink")),
    NameRule("O", "an IP address",
              _words("ip", "ip_address", "ipaddress", "ip_addr", "ipv4", "ipv6", "client_ip", "remote_addr",
                     "remote_ip", "host_ip", "source_ip", "src_ip")),
    NameRule("P", "a biometric identifier",
              _words("biometric", "biometrics", "fingerprint", "fingerprints", "finger_print", "voiceprint",
                     "voice_print", "retina", "retinal_scan", "iris", "iris_scan", "iris_code", "palm_print",
                     "palmprint", "face_encoding", "faceprint", "face_template", "face_embedding", "gait",
                     "hand_geometry", "dna_profile")),
    NameRule("Q", "a photograph or image",
              _words("photo", "photos", "photograph", "picture", "pic", "image", "images", "img", "portrait",
                     "headshot", "selfie", "face_image", "mugshot", "avatar", "photo_url", "photo_path",
                     "image_path", "image_file", "image_url"),
              _words("quality", "count", "type", "format", "has", "consent")),
    NameRule("R", "an identifying code or number",
              _words(r"(?:u?subj(?:ect)?|patient|pt|person|participant|individual|client|customer|user|resident|"
                     r"respondent|citizen|member|employee|staff|student|case|record|study|unique|national|personal|"
                     r"tax|voter|social|health|social_insurance)?_?(?:id|identifier|uid|uuid|guid)",
                     "usubjid", "subjid", "pid", "uid", "uuid", "guid", "personid", "username", "user_name",
                     "login", "national_number", "personal_number", "tax_number", "tin", "bsn", "insee",
                     "personnummer", "nino", "sin_number", "unnamed_0", "index", "row_id", "rowid", "record_no"),
              _words("household", "hh", "family", "dwelling", "region", "site", "centre", "center", "hospital",
                     "clinic", "country", "state", "area", "district", "ward", "unit", "team", "group", "batch",
                     "visit", "sample", "specimen", "lab", "test", "drug", "product", "diagnosis", "icd",
                     "question", "item", "form", "event", "device", "plan", "policy", "account"), number=True),
)


# ---------------------------------------------------------------------------------------------
# Values. Each test takes the sampled distinct values (stripped strings) and returns a mask.

def full_match(pattern: str, flags: int = re.IGNORECASE) -> Callable[[pd.Series], np.ndarray]:
    rx = re.compile(pattern, flags)
    return lambda t: t.str.fullmatch(rx).to_numpy(dtype=bool, na_value=False)


_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_H4 = r"[0-9a-f]{1,4}"
_IPV6 = (rf"(?:(?:{_H4}:){{7}}{_H4}|(?:{_H4}:){{1,7}}:|(?:{_H4}:){{1,6}}:{_H4}|(?:{_H4}:){{1,5}}(?::{_H4}){{1,2}}|"
         rf"(?:{_H4}:){{1,4}}(?::{_H4}){{1,3}}|(?:{_H4}:){{1,3}}(?::{_H4}){{1,4}}|(?:{_H4}:){{1,2}}(?::{_H4}){{1,5}}|"
         rf"{_H4}:(?::{_H4}){{1,6}}|:(?::{_H4}){{1,7}}|::)")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = (r"(?:\d{4}-\d{1,2}-\d{1,2}(?:[ t]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:z|[+-]\d{2}:?\d{2})?"
         r"|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?: \d{1,2}:\d{2}(?::\d{2})?)?"
         rf"|\d{{1,2}}[ -]{_MONTH}[ -,]*\d{{2,4}}|{_MONTH} \d{{1,2}},? \d{{4}}|\d{{4}}-(?:0[1-9]|1[0-2]))")
_SSN = r"(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}"
_STREET = (r"(?:\d+[a-z]?(?:-\d+)?,?\s+(?:[a-z0-9.'-]+\s+){0,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|"
           r"ln|drive|dr|court|ct|way|place|pl|terrace|ter|circle|cir|highway|hwy|parkway|pkwy|square|sq|close|"
           r"crescent|cres|row|walk|alley)\b\.?.*|p\.?\s*o\.?\s*box\s+\d+.*)")
PERSON = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*(?:,? (?:[A-Z]\.|[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*)){1,3}"


def _phone(t: pd.Series) -> np.ndarray:
    shape = t.str.fullmatch(r"(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?|\d{1,4}[\s.-])(?:\d{2,4}[\s.-]?){1,3}\d{2,4}"
                            r"(?:\s*(?:x|ext\.?)\s*\d{1,5})?", case=False).to_numpy(dtype=bool, na_value=False)
    digits = t.str.count(r"\d").to_numpy()
    not_other = ~(full_match(_SSN)(t) | full_match(_DATE)(t))
    return shape & (digits >= 9) & (digits <= 15) & not_other


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card(t: pd.Series) -> np.ndarray:
    shape = full_match(r"\d{4}(?:[ -]?\d{4}){2}[ -]?\d{1,7}")(t)
    out = np.zeros(len(t), dtype=bool)
    for i in np.flatnonzero(shape):  # only values already shaped like a card number (bounded sample)
        d = re.sub(r"\D", "", t.iloc[i])
        out[i] = 13 <= len(d) <= 19 and _luhn_ok(d)
    return out


VALUE_RULES: tuple[tuple[str, str, Callable[[pd.Series], np.ndarray]], ...] = (
    ("F", "e-mail addresses", full_match(r"[a-z0-9._%+'-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}")),
    ("N", "URLs", full_match(r"(?:(?:https?|ftp)://|www\.)[^\s/$.?#][^\s]*")),
    ("O", "IP addresses", full_match(rf"{_OCTET}(?:\.{_OCTET}){{3}}|{_IPV6}")),
    ("G", "social security numbers (ddd-dd-dddd)", full_match(_SSN)),
    ("M", "MAC addresses", full_match(r"(?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2}")),
    ("J", "IBANs", full_match(r"[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,4})?")),
    ("J", "payment card numbers (Luhn check)", _card),
    ("L", "vehicle identification numbers", full_match(r"(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-hj-npr-z])[a-hj-npr-z0-9]{17}")),
    ("Q", "image files or embedded images", full_match(r"(?:.*\.(?:jpe?g|png|gif|bmp|tiff?|heic|webp|dcm)|data:image/.*)")),
    ("B", "ZIP+4 codes", full_match(r"\d{5}-\d{4}")),
    ("B", "street addresses", full_match(_STREET)),
    ("D", "telephone numbers", _phone),
    ("C", "dates", full_match(_DATE)),
)
