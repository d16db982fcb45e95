"""A thin layer over selenium for the admin flows: steps, forms, actions, messages.

Pages are found by what does not change with the admin's language or column layout: URLs,
form field names, action values (`approve`, `publish_now`) and button names (`_save`,
`index`, `confirm`), never by English labels, so the flows survive the translation to pt-BR.
Each flow is a list of `with browser.step("..."):` blocks: a failing step saves a screenshot
and the page's HTML of every step so far (see `Browser.step`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.request import urlopen

from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

WINDOW = (1366, 900)
WAIT_SECONDS = 10


def start_chromium(
    chromium: str, chromedriver: str, *extra: str, logs: bool = False
) -> webdriver.Chrome:
    """Headless Debian chromium driven by Debian's chromedriver (nothing is downloaded);
    `extra` command-line arguments after the usual ones. With `logs`, the console
    (`driver.get_log("browser")`) and the network events (`get_log("performance")`) are kept."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    for argument in (
        "--headless=new",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        "--no-sandbox",  # CI containers run as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-extensions",
        "--no-first-run",
        "--lang=en-US",
        *extra,
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    driver.set_window_size(*WINDOW)
    driver.set_page_load_timeout(30)
    return driver


class Browser:
    def __init__(self, driver: webdriver.Chrome, base_url: str, artifacts: Path):
        self.driver = driver
        self.base_url = base_url.rstrip("/")
        self.artifacts = artifacts
        self.steps: list[str] = []
        self.failed_step: str | None = None

    # --- steps and artifacts ------------------------------------------------------------------

    @contextmanager
    def step(self, label: str) -> Iterator[None]:
        """One step of a flow; on failure, a screenshot and the HTML of the page go to the
        artifacts folder (named by step number and label) before the error is raised."""
        self.steps.append(label)
        try:
            yield
        except BaseException:
            self.failed_step = label
            self.save_artifacts(f"{len(self.steps):02d}-{slug(label)}-FAILED")
            raise
        self.save_artifacts(f"{len(self.steps):02d}-{slug(label)}")

    def save_artifacts(self, name: str) -> None:
        self.artifacts.mkdir(parents=True, exist_ok=True)
        try:
            self.driver.save_screenshot(str(self.artifacts / f"{name}.png"))
            (self.artifacts / f"{name}.html").write_text(self.driver.page_source)
        except Exception as exc:  # a dead browser must not hide the test's own error
            (self.artifacts / f"{name}.error.txt").write_text(repr(exc))

    # --- navigation -----------------------------------------------------------------------------

    def open(self, path: str) -> None:
        self.driver.get(self.base_url + path)

    @property
    def path(self) -> str:
        return self.driver.current_url.removeprefix(self.base_url)

    def find(self, css: str) -> WebElement:
        return WebDriverWait(self.driver, WAIT_SECONDS).until(
            ec.presence_of_element_located((By.CSS_SELECTOR, css))
        )

    def find_all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def has(self, css: str) -> bool:
        try:
            self.driver.find_element(By.CSS_SELECTOR, css)
        except NoSuchElementException:
            return False
        return True

    def click_and_wait(self, css: str) -> None:
        """Click what submits a form or follows a link, then wait for the next page."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        element = self.find(css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()
        WebDriverWait(self.driver, WAIT_SECONDS).until(lambda driver: left(page))
        self.find("body")

    # --- forms ----------------------------------------------------------------------------------

    def fill(self, name: str, value: str) -> None:
        field = self.find(f'[name="{name}"]')
        field.clear()
        field.send_keys(value)

    def upload(self, name: str, file: Path) -> None:
        self.find(f'input[type="file"][name="{name}"]').send_keys(str(file))

    def check(self, name: str, on: bool = True) -> None:
        box = self.find(f'input[type="checkbox"][name="{name}"]')
        if box.is_selected() != on:
            self.driver.execute_script("arguments[0].click();", box)

    def click_add_inline(self, prefix: str) -> None:
        """The "Add another ..." link of the inline formset `prefix` (adds one empty form)."""
        before = len(self.find_all(f'[id^="{prefix}-"].inline-related:not(.empty-form)'))
        link = self.find(f"#{prefix}-group .add-row a")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
        link.click()
        WebDriverWait(self.driver, WAIT_SECONDS).until(
            lambda driver: (
                len(self.find_all(f'[id^="{prefix}-"].inline-related:not(.empty-form)')) > before
            )
        )

    def api(self, path: str) -> tuple[int, object]:
        """A public API answer over real HTTP from the live server (what a front end sees)."""
        return get_json(self.base_url, path)

    def save(self) -> None:
        """The admin's main "Save" button of a change form."""
        self.click_and_wait('input[name="_save"]')

    def field_errors(self) -> list[str]:
        return [e.text for e in self.find_all(".errorlist, .errornote") if e.text.strip()]

    # --- change lists ---------------------------------------------------------------------------

    def action_values(self) -> list[str]:
        select = Select(self.find('select[name="action"]'))
        return [option.get_attribute("value") or "" for option in select.options]

    def run_action(self, action: str, object_ids: list[int]) -> None:
        """Tick the rows of `object_ids` on the open change list and run `action`."""
        for object_id in object_ids:
            self.check_row(object_id)
        Select(self.find('select[name="action"]')).select_by_value(action)
        self.click_and_wait('button[name="index"]')

    def check_row(self, object_id: int) -> None:
        box = self.find(f'input[name="_selected_action"][value="{object_id}"]')
        if not box.is_selected():
            box.click()

    def messages(self) -> list[str]:
        return [item.text for item in self.find_all("ul.messagelist li")]

    # --- sign-in --------------------------------------------------------------------------------

    def sign_in(self, username: str, password: str) -> None:
        self.open("/admin/login/?next=/admin/")
        self.fill("username", username)
        self.fill("password", password)
        self.click_and_wait('#login-form [type="submit"]')


def left(page: WebElement) -> bool:
    """True once `page` (the old document's root) is gone. Chromium, asked about the old root
    while the new document is being attached, may answer "Node with given id does not belong
    to the document" instead of a stale-element error: that also means the page was left."""
    try:
        page.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in (error.msg or ""):
            return True
        raise
    return False


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def get_json(base_url: str, path: str) -> tuple[int, object]:
    """A public API answer over real HTTP from the live server (what a front end sees)."""
    with urlopen(base_url.rstrip("/") + path, timeout=10) as response:  # noqa: S310 - test URL
        return response.status, json.loads(response.read())
