"""`KitApp`: the terminal UI. Five panes (chat, days, facts, consolidation, notes), a status line
and a footer of key bindings; reminders (F5), the memory digest (F7) and the inbox of changes Kit
asks about first (F8) open as screens. It only ever talks to a `KitClient`, so it neither knows
nor cares whether Kit runs in this process or in a daemon behind the control socket. With a
`Follower` (what `kit tui` uses) it also follows the engine: when the daemon stops it says so
once, keeps the status line true, and carries on with the daemon back or with Kit run here."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import tzinfo
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from kit.clock import resolve_timezone
from kit.daemon.follow import Follower
from kit.daemon.socket_client import DaemonUnavailable
from kit.surface import KitClient
from tui.base import KitHost, MemoryChanged, Pane, start_work
from tui.chat import ChatPane
from tui.consolidation import ConsolidationPane
from tui.days import DaysPane
from tui.digest import DigestScreen
from tui.fact_history import FactHistoryScreen
from tui.facts import FactsPane
from tui.failures import describe, log_failure
from tui.inbox import InboxScreen
from tui.notes import NotesPane
from tui.reminders import CHECK_SECONDS, RemindersScreen, show_notices
from tui.status import StatusLine

# Which widget takes the keyboard when a tab is shown (so its pane's bindings are live).
FOCUS_ON_SHOW = {
    "chat": "#prompt",
    "days": "#day-list",
    "facts": "#fact-table",
    "rem": "#rem-report-box",
    "notes": "#note-list",
}

SCREEN_KEYS = (
    "[@click=app.show_reminders]F5 Reminders[/]  [@click=app.show_digest]F7 Digest[/]  "
    "[@click=app.show_inbox]F8 Inbox[/]"
)
SCREEN_KEYS_WIDTH = len("F5 Reminders  F7 Digest  F8 Inbox")
TAB_LABELS_WIDTH = 46  # the five tab labels, each with its padding

FOLLOW_GROUP = "follow"  # the worker that follows the engine as long as the app runs
NOTICE_SECONDS = 10  # how long an error stays up; the same one again meanwhile is not repeated


class KitApp(KitHost):
    CSS_PATH = "kit.tcss"
    TITLE = "Kit"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        # Listed after the focused pane's own keys in the footer (and on the tab labels).
        Binding("ctrl+r", "reload", "Reload", tooltip="Reload the status and every pane"),
        # On the tab labels already, so not in the footer (which then fits 80 columns).
        # Priority: taken by the app before the focused widget sees the key, so a key pressed
        # right after (F4 then n) reaches the pane just shown, not the one left behind.
        *(
            Binding(key, action, name, tooltip=tip, show=False, priority=True)
            for key, action, name, tip in (
                ("f1", "show_tab('chat')", "Chat", "Show the chat"),
                ("f2", "show_tab('days')", "Days", "Show the day summaries"),
                ("f3", "show_tab('facts')", "Facts", "Show the facts"),
                ("f4", "show_tab('rem')", "REM", "Show consolidation"),
                ("f5", "show_reminders", "Reminders", "List and cancel reminders"),
                ("f6", "show_tab('notes')", "Notes", "Show the notes"),
                ("f7", "show_digest", "Digest", "What Kit learned and changed"),
                (
                    "f8",
                    "show_inbox",
                    "Inbox",
                    "Changes Kit asks you about first: keep old, take new, keep both",
                ),
            )
        ),
        # Hidden from the footer as in every Textual app; the palette lists it as "Quit".
        Binding("ctrl+q", "quit", "Quit", tooltip="Quit the TUI", priority=True, show=False),
    ]

    def __init__(
        self,
        client: KitClient,
        *,
        tz: tzinfo | None = None,
        conversation: str = "terminal",
        log_file: Path | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        self.tz = tz if tz is not None else resolve_timezone("")
        self.conversation = conversation
        self.log_file = log_file  # named in messages about unexpected errors
        self._shown: dict[str, float] = {}  # error message -> when it was last shown

    def compose(self) -> ComposeResult:
        with TabbedContent(initial="chat", id="tabs"):
            with TabPane("F1 Chat", id="chat"):
                yield ChatPane(conversation=self.conversation, id="chat-pane")
            with TabPane("F2 Days", id="days"):
                yield DaysPane(id="days-pane")
            with TabPane("F3 Facts", id="facts"):
                yield FactsPane(id="facts-pane")
            with TabPane("F4 REM", id="rem"):
                yield ConsolidationPane(id="rem-pane")
            with TabPane("F6 Notes", id="notes"):
                yield NotesPane(id="notes-pane")
        # The screens' keys, right of the tab labels (the footer has no room for them at 80
        # columns): the owner saw no key for Reminders, Digest and Inbox.
        yield Static(SCREEN_KEYS, id="screen-keys", markup=True)
        yield StatusLine(self.tz, id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.reload_everything()
        self.action_show_tab("chat")
        if isinstance(self.client, Follower):
            start_work(self, self._follow, self.client, group=FOLLOW_GROUP)
        self._check_notices()
        self.set_interval(CHECK_SECONDS, self._check_notices)
        start_work(self, self._tell_of_questions, group="inbox")

    def on_resize(self, event: events.Resize) -> None:
        """Keep the screens' keys at the right end of the tab row; hidden in a terminal too
        narrow to have them beside the tab labels (the palette still lists them)."""
        keys = self.query_one("#screen-keys", Static)
        left = event.size.width - SCREEN_KEYS_WIDTH
        keys.display = left >= TAB_LABELS_WIDTH + 1
        keys.styles.offset = (max(0, left), 0)

    def _check_notices(self) -> None:
        start_work(self, show_notices, self, group="notices")

    def action_show_reminders(self) -> None:
        if isinstance(self.screen, ModalScreen | RemindersScreen):
            return
        self.push_screen(RemindersScreen())

    def action_show_digest(self) -> None:
        if isinstance(self.screen, ModalScreen | DigestScreen):
            return
        self.push_screen(DigestScreen())

    def action_show_inbox(self) -> None:
        if isinstance(self.screen, ModalScreen | InboxScreen):
            return
        self.push_screen(InboxScreen())

    async def _tell_of_questions(self) -> None:
        """Once, when the TUI opens: questions waiting in the inbox."""
        with self.reporting():
            waiting = await self.client.inbox()
            if waiting:
                count = f"{len(waiting)} question{'s' if len(waiting) != 1 else ''}"
                self.notify(f"{count} about changes to your facts wait for you: F8.", title="Kit")

    # -- failures: the one place client errors become notifications -------------------------

    @contextmanager
    def reporting(self) -> Iterator[None]:
        """Run a client call; if it fails, tell the owner what to do instead of crashing."""
        try:
            yield
        except Exception as exc:
            log_failure(exc)
            if isinstance(exc, DaemonUnavailable) and isinstance(self.client, Follower):
                return  # `_follow` says it once, and the status line shows it meanwhile
            self._notify_once(describe(exc, self.log_file))

    def _notify_once(self, message: str) -> None:
        """An error, unless the very same one is on the screen already (several panes failing
        for one reason say it once)."""
        now = time.monotonic()
        if now - self._shown.get(message, -NOTICE_SECONDS) < NOTICE_SECONDS:
            return
        self._shown[message] = now
        self.notify(message, title="Kit", severity="error", timeout=NOTICE_SECONDS)

    # -- following the engine across daemon restarts ------------------------------------------

    def announce_lost(self, fallback_after: float) -> None:
        """The daemon went away: the status line says so, and one notification says what next."""
        self.query_one("#status", StatusLine).show_lost("daemon stopped · waiting for it")
        self.notify(
            f"Waiting for it to come back; if it has not within {fallback_after:.0f}s, Kit "
            "runs inside this TUI. What you sent before is saved.",
            title="Kit daemon stopped",
            severity="warning",
            timeout=NOTICE_SECONDS,
        )

    async def _follow(self, follower: Follower) -> None:
        status = self.query_one("#status", StatusLine)
        while True:
            await follower.wait_lost()
            self.announce_lost(follower.fallback_after)
            try:
                mode = await follower.recover()
            except Exception as exc:  # Kit could not be opened here (its database, say)
                log_failure(exc)
                status.show_lost("no engine · quit and reopen kit tui")
                self.notify(describe(exc, self.log_file), title="Kit", severity="error")
                return
            if mode == "daemon":
                self.notify("Connected to the Kit daemon again.", title="Kit")
            else:
                self.notify(
                    "Kit now runs inside this TUI, as the daemon did not come back. Quit the "
                    "TUI before you start the daemon again (`kit run`): it holds the data "
                    "directory until then.",
                    title="Kit runs here now",
                    severity="warning",
                    timeout=NOTICE_SECONDS * 2,
                )
            self.reload_everything()

    # -- keeping what is shown fresh ----------------------------------------------------------

    def on_memory_changed(self, message: MemoryChanged) -> None:
        message.stop()
        self.reload_everything()

    def reload_everything(self) -> None:
        start_work(self, self._reload_status, group="status")
        for pane in self.query_one("#tabs", TabbedContent).query(Pane):
            pane.start_reload()
        for screen in self.screen_stack:
            if isinstance(screen, FactHistoryScreen | RemindersScreen | DigestScreen | InboxScreen):
                screen.start_reload()

    async def _reload_status(self) -> None:
        with self.reporting():
            status = await self.client.status()
            self.query_one("#status", StatusLine).show(status)

    def action_reload(self) -> None:
        self.reload_everything()

    # -- navigation ---------------------------------------------------------------------------

    def action_show_tab(self, tab: str) -> None:
        if isinstance(self.screen, ModalScreen):
            return  # a dialog is open: it keeps the keyboard
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.query_one("#tabs", TabbedContent).active = tab
        # Now, not later (`Widget.focus` waits its turn): a key pressed right after the tab's
        # went to the pane left behind (F4 then n typed "n" into the chat's prompt).
        self.screen.set_focus(self.query_one(FOCUS_ON_SHOW[tab]))

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        tab = event.pane.id or ""
        if tab in FOCUS_ON_SHOW:
            self.query_one(FOCUS_ON_SHOW[tab]).focus()

    # -- the command palette lists every key binding that is live where it was opened ---------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            if binding.system or not binding.description or binding.action == "quit":
                continue
            if binding.action in seen:
                continue
            seen.add(binding.action)
            key = self.get_key_display(binding)
            yield SystemCommand(
                binding.description,
                f"{binding.tooltip or binding.description} (key: {key})",
                partial(self._run_binding, active.node, binding.action),
            )

    async def _run_binding(self, node: DOMNode, action: str) -> None:
        await self.run_action(action, node)
