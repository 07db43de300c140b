"""LoCoMo-format conversations (Maharana et al., ACL 2024) as plain dataclasses.

A file is a JSON list of samples: `conversation` holds `speaker_a`, `speaker_b` and numbered
`session_N` turn lists with `session_N_date_time` strings ("1:56 pm on 8 May, 2023"); `qa` holds
questions whose `evidence` names the turns (`dia_id`, "D1:3") that contain the answer.
Category 5 (adversarial: the answer is not in the conversation) and questions without
evidence cannot measure retrieval, so they are left out. The whole file is checked before
anything is evaluated, and every problem names the sample and field.

A question set of one's own (`load_questions`: {"questions": [{"sample_id", "question",
"evidence", "kind"}]}) can replace a file's questions: questions written without the data's
templates, over the same conversations.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from kit.errors import InputError

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)

_SESSION = re.compile(r"session_(\d+)")
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %B %Y", "%I:%M %p on %d %b, %Y")


# A conversation with an assistant names that side "Assistant" (BEAM's, converted by
# ../shared/tools/convert_beam.py: "User" and "Assistant"): its turns are what Kit's own
# replies would be, imported as role "assistant"; every other speaker's as the owner's ("user").
ASSISTANT = "assistant"


@dataclass(frozen=True)
class Turn:
    ref: str  # the dia_id, "D3:12"
    session: int
    speaker: str
    text: str
    at: datetime

    @property
    def role(self) -> Literal["user", "assistant"]:
        """How Kit would have stored the turn: its own reply, or the owner's message."""
        return "assistant" if self.speaker.strip().casefold() == ASSISTANT else "user"


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]  # normalised dia_ids, all present in the conversation
    answer: str = ""  # the key (`kit eval qa` grades against it); "" when the file has none
    label: str = ""  # a question set's own kind ("paraphrase", ...), instead of the category

    @property
    def category_name(self) -> str:
        return self.label or CATEGORIES.get(self.category, str(self.category))


@dataclass(frozen=True)
class Sample:
    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    skipped: int  # questions left out: adversarial, without evidence, or evidence not found
    repaired: int  # evidence strings that needed normalising

    @property
    def end(self) -> datetime:
        """When the conversation is over: questions are asked as of this moment."""
        return max(t.at for t in self.turns)


def normalise_evidence(raw: str) -> tuple[str, ...]:
    """Every dia_id in an evidence string: "D8:6; D9:17" -> D8:6, D9:17; "D:11:26" -> D11:26;
    "D30:05" -> D30:5."""
    return tuple(f"D{int(s)}:{int(t)}" for s, t in _EVIDENCE.findall(raw))


def parse_session_time(text: str, where: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" -> an aware datetime (LoCoMo gives no zone: UTC)."""
    cleaned = " ".join(text.replace(".", "").split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise InputError(f"{where}: {text!r} is not a session time like '1:56 pm on 8 May, 2023'")


def turn_text(raw: dict[str, Any], captions: bool = True) -> str:
    """What the speaker said, plus the caption of the photo they shared with it: only where
    the turn says a photo was shared (`img_url`). LoCoMo keeps captions on some turns that
    share none (a third of them in the dev split); those were never seen by the other
    speaker, and Kit's own messages carry no captions at all."""
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    shared = raw.get("img_url")
    if captions and shared and isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo: {caption.strip()}]".strip()
    return text


def load(path: Path, *, captions: bool = True) -> list[Sample]:
    """Every sample in a LoCoMo-format file, or an InputError naming the first problem.
    Without `captions`, a turn is its text alone (photos shared with it are ignored)."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid JSON ({exc}); expected a LoCoMo-format file") from exc
    except RecursionError as exc:
        raise InputError(
            f"{path}: nested too deeply to read; expected a LoCoMo-format file"
        ) from exc
    return parse(data, str(path), captions=captions)


def parse(data: Any, source: str, *, captions: bool = True) -> list[Sample]:
    if not isinstance(data, list) or not data:
        raise InputError(f"{source}: expected a non-empty JSON list of LoCoMo samples")
    samples = [_sample(item, f"{source}[{i}]", captions) for i, item in enumerate(data)]
    ids = [s.sample_id for s in samples]
    if len(set(ids)) != len(ids):
        raise InputError(f"{source}: sample_id values must be unique")
    return samples


def _field(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind):
        raise InputError(f"{where}: '{key}' must be a {kind.__name__}")
    return value


def _sample(item: Any, where: str, captions: bool) -> Sample:
    if not isinstance(item, dict):
        raise InputError(f"{where}: expected an object with 'sample_id', 'conversation', 'qa'")
    sample_id = str(item.get("sample_id") or where)
    where = f"{where} ({sample_id})"
    conv = _field(item, "conversation", dict, where)
    speakers = (
        str(_field(conv, "speaker_a", str, f"{where}.conversation")),
        str(_field(conv, "speaker_b", str, f"{where}.conversation")),
    )
    turns = _turns(conv, f"{where}.conversation", captions)
    known = {t.ref for t in turns}
    questions: list[Question] = []
    skipped = repaired = 0
    for n, qa in enumerate(_field(item, "qa", list, where)):
        q_where = f"{where}.qa[{n}]"
        if not isinstance(qa, dict):
            raise InputError(f"{q_where}: expected an object with 'question' and 'evidence'")
        question = _field(qa, "question", str, q_where)
        category = qa.get("category")
        if not isinstance(category, int) or isinstance(category, bool):
            raise InputError(f"{q_where}: 'category' must be an integer 1-5")
        raw = qa.get("evidence") or []
        if not isinstance(raw, list) or not all(isinstance(e, str) for e in raw):
            raise InputError(f"{q_where}: 'evidence' must be a list of dia_id strings")
        evidence: list[str] = []
        for entry in raw:
            found = normalise_evidence(entry)
            if found != (entry,):
                repaired += 1
            evidence.extend(e for e in found if e in known and e not in evidence)
        if category not in SCORED_CATEGORIES or not evidence:
            skipped += 1
            continue
        key = qa.get("answer")
        answer = "" if key is None or isinstance(key, dict | list) else str(key).strip()
        questions.append(Question(question, category, tuple(evidence), answer))
    return Sample(sample_id, speakers, tuple(turns), tuple(questions), skipped, repaired)


def _turns(conv: dict[str, Any], where: str, captions: bool) -> list[Turn]:
    sessions = sorted(int(m.group(1)) for key in conv if (m := _SESSION.fullmatch(key)) is not None)
    if not sessions:
        raise InputError(f"{where}: no session_N turn lists found")
    turns: list[Turn] = []
    for number in sessions:
        s_where = f"{where}.session_{number}"
        stamp = conv.get(f"session_{number}_date_time")
        if not isinstance(stamp, str):
            raise InputError(f"{s_where}_date_time: missing; every session needs its date")
        start = parse_session_time(stamp, f"{s_where}_date_time")
        raw_turns = _field(conv, f"session_{number}", list, where)
        for i, raw in enumerate(raw_turns):
            t_where = f"{s_where}[{i}]"
            if not isinstance(raw, dict):
                raise InputError(f"{t_where}: expected an object with speaker, dia_id, text")
            speaker = _field(raw, "speaker", str, t_where)
            ids = normalise_evidence(str(raw.get("dia_id", "")))
            if len(ids) != 1:
                raise InputError(f"{t_where}: 'dia_id' must look like 'D{number}:{i + 1}'")
            text = turn_text(raw, captions)
            if not text:
                continue  # nothing to remember
            # Turns share their session's time; a second apart keeps them in order.
            turns.append(Turn(ids[0], number, speaker, text, start + timedelta(seconds=i)))
    refs = [t.ref for t in turns]
    if len(set(refs)) != len(refs):
        raise InputError(f"{where}: dia_id values must be unique within a conversation")
    return turns


def load_questions(path: Path, samples: Sequence[Sample]) -> list[Sample]:
    """The samples a question set names, each with the set's questions instead of its own
    (an InputError names the first problem: an unknown sample, an evidence turn it lacks)."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid JSON ({exc})") from exc
    items = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise InputError(f'{path}: expected an object with a non-empty "questions" list')
    by_id = {s.sample_id: s for s in samples}
    asked: dict[str, list[Question]] = {}
    for n, item in enumerate(items):
        where = f"{path}: questions[{n}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected an object with sample_id, question, evidence")
        sample_id = _field(item, "sample_id", str, where)
        sample = by_id.get(sample_id)
        if sample is None:
            raise InputError(f"{where}: sample {sample_id!r} is not in the conversations file")
        text = _field(item, "question", str, where)
        raw = _field(item, "evidence", list, where)
        evidence = tuple(e for entry in raw for e in normalise_evidence(str(entry)))
        known = {t.ref for t in sample.turns}
        missing = [e for e in evidence if e not in known]
        if not evidence or missing:
            raise InputError(f"{where}: evidence {missing or raw} names no turn of {sample_id}")
        kind = str(item.get("kind") or "asked")
        asked.setdefault(sample_id, []).append(Question(text, 0, evidence, label=kind))
    return [
        dataclasses.replace(s, questions=tuple(asked[s.sample_id]), skipped=0, repaired=0)
        for s in samples
        if s.sample_id in asked
    ]
