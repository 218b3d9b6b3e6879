"""Two people on the web pages at once (Scripts/browser-test.py): what one does shows in the
other in place, and an action on a stale row is refused and said, changing nothing."""
import os

from selenium.webdriver.common.by import By

from browser_common import request, wait_until


def section_of(d, item):
    """The header of the price section an item's row is drawn in."""
    return d.execute_script(f'return document.querySelector(\'tr[data-item="{item}"]\').closest("table").previousElementSibling.textContent')


class TwoPeople:
    """Browsers `a` and `b` on the server's pages at `base` (its line port `port`); `shots`, a
    directory to save each acting page's picture into, or None."""

    def __init__(self, a, b, port, base, shots):
        self.a, self.b, self.port, self.base, self.shots = a, b, port, base, shots

    @staticmethod
    def view(d):
        return d.find_element(By.ID, "view").text

    @staticmethod
    def live(d):
        return d.find_element(By.ID, "status").text.startswith("live")

    @staticmethod
    def notice(d):
        return d.find_element(By.ID, "notice").text

    def open_both(self, path, expected):
        for d in (self.a, self.b):
            d.get(self.base + path)
            wait_until(f"{path} shows {expected!r} live", lambda: expected in self.view(d) and self.live(d), 10)

    def click(self, d, css, text=None):
        """Clicks the control once the page has drawn it: a view is drawn after its read
        comes back, so a control may appear (or be drawn again) a moment after the action
        that asks for it."""
        def found():
            for el in d.find_elements(By.CSS_SELECTOR, css):
                if text is None or el.text == text:
                    el.click()
                    return True
            return False
        try:
            wait_until(f"{css} {text!r} to click", found, 10)
        except SystemExit:
            raise SystemExit(f"FAIL: nothing {css} {text!r} to click on {d.current_url}:\n{self.view(d)}")

    @staticmethod
    def field(d, css):
        """The input once the page has drawn it (an edit form is drawn after a read)."""
        wait_until(f"{css} drawn", lambda: d.find_elements(By.CSS_SELECTOR, css), 10)
        return d.find_element(By.CSS_SELECTOR, css)

    def shot(self, d, name):
        if self.shots:
            d.save_screenshot(os.path.join(self.shots, name))

    def run(self):
        for d in (self.a, self.b):
            d.get_log("browser")  # what the pages before logged (the cut stream's resets) is not this part's
        self.settings()
        self.items()
        self.typing_and_filter()
        self.menu()
        self.deep_links()
        errors = [e for d in (self.a, self.b) for e in d.get_log("browser")
                  if e["level"] == "SEVERE" and "409" not in e["message"]]
        if errors:
            raise SystemExit(f"FAIL: the acting pages logged script errors: {errors}")

    def settings(self):
        """A deep link opens a setting; a tap selects an option, and the other sees it; a tap on a
        stale screen is refused and said."""
        a, b, port = self.a, self.b, self.port
        self.open_both("/settings/my-int", "My Int")
        self.click(a, "button.opt", "64")
        wait_until("B shows the option A selected, in the table and the detail", lambda: "64" in b.find_element(By.CSS_SELECTOR, "tr.picked").text and b.find_element(By.CSS_SELECTOR, "button.opt.on").text == "64", 10)
        print("ok - /settings/my-int: A taps 64, B's master row and selected option show it")
        # A stale screen: B stops following, another client changes the setting, B's tap is refused.
        b.execute_script("source.close()")
        assert request(port, "SELECT /settings/my-int #1").startswith("OK")
        self.click(b, "button.opt", "16")
        wait_until("B is told its tap came on a stale row", lambda: "refused" in self.notice(b) and "changed at rev" in self.notice(b), 10)
        shown = request(port, "SHOW /settings/my-int")
        if "My Int: 8" not in shown:
            raise SystemExit(f"FAIL: a stale tap changed the setting: {shown}")
        wait_until("B's rows are read again after the refusal", lambda: b.find_element(By.CSS_SELECTOR, "button.opt.on").text == "8", 10)
        print(f"ok - a tap on a stale row is refused and said ({self.notice(b)!r}); nothing changed, and the rows are read again")
        self.shot(b, "web-settings.png")

    def items(self):
        """A star, a move, an add, an edit and a delete, each shown in the other browser."""
        a, b, port = self.a, self.b, self.port
        assert request(port, 'BANDS "Cheap Items" 50 "Expensive Items"').startswith("OK")
        self.open_both("/items", "Rusty Spork")
        self.click(a, 'tr[data-item="1"] button.star')
        wait_until("B shows the star A set", lambda: "★" in b.find_element(By.CSS_SELECTOR, 'tr[data-item="1"]').text, 10)
        order = lambda d: [r.get_attribute("data-item") for r in d.find_elements(By.CSS_SELECTOR, "tr[data-item]")]
        before = order(b)
        i = before.index("1")
        moved = before[:i] + [before[i + 1], "1"] + before[i + 2:]
        self.click(a, 'tr[data-item="1"] button[title="move down"]')
        wait_until("B shows the move A made", lambda: order(b) == moved, 10)
        print("ok - /items: A stars item 1 and moves it down; B shows both in place")
        self.field(a, '#add input[name="name"]').send_keys("Desk Lamp")
        self.field(a, '#add input[name="value"]').send_keys("30")
        self.click(a, "#add button", "Add item")
        wait_until("B shows the item A added", lambda: "Desk Lamp" in self.view(b), 10)
        lamp = next(r.get_attribute("data-item") for r in b.find_elements(By.CSS_SELECTOR, "tr[data-item]") if "Desk Lamp" in r.text)
        self.click(a, f'tr[data-item="{lamp}"] button[title="edit"]')
        price = self.field(a, 'form.edit input[name="value"]')
        price.clear()
        price.send_keys("75")
        self.click(a, "form.edit button", "Save")
        wait_until("B shows the new price move the item to its band", lambda: "$75" in b.find_element(By.CSS_SELECTOR, f'tr[data-item="{lamp}"]').text and section_of(b, lamp).startswith("Expensive Items"), 10)
        self.click(a, f'tr[data-item="{lamp}"] button[title="delete"]')
        a.switch_to.alert.accept()
        wait_until("B no longer shows the item A deleted", lambda: "Desk Lamp" not in self.view(b), 10)
        print("ok - /items: A adds Desk Lamp, prices it at $75 (it moves band) and deletes it; B shows each")

    def typing_and_filter(self):
        """Half-typed into the add form while someone else changes the list: what was typed stays,
        with the cursor in its field; then the favourites filter."""
        a, port = self.a, self.port
        self.field(a, '#add input[name="name"]').send_keys("Half Typed")
        assert request(port, 'ADD /items "Live Change" 12').startswith("OK")
        wait_until("A shows the change made over TCP", lambda: "Live Change" in self.view(a), 10)
        typed = a.find_element(By.CSS_SELECTOR, '#add input[name="name"]').get_attribute("value")
        focused = a.execute_script("return document.activeElement && document.activeElement.name")
        if typed != "Half Typed" or focused != "name":
            raise SystemExit(f"FAIL: a live change lost what was typed into the add form (value {typed!r}, focus on {focused!r})")
        print("ok - what is half typed into the add form survives a live change, with the cursor in its field")
        self.click(a, "button", "Favorites")
        wait_until("the favourites-only view shows only favourites", lambda: "Rusty Spork" in self.view(a) and "Shiny Mac" not in self.view(a) and "Show All" in self.view(a), 10)
        heads = [h.text for h in a.find_elements(By.CSS_SELECTOR, "#view h2")]
        if not heads or not all(h.upper().endswith(("FAVOURITE", "FAVOURITES")) for h in heads):
            raise SystemExit(f"FAIL: under the filter the section headers count what is not shown: {heads}")
        print(f"ok - under the favourites filter each header counts the favourites it shows ({'; '.join(heads)})")
        self.shot(a, "web-items.png")
        self.click(a, "button", "Show All")

    def menu(self):
        """A tap orders, and the other's order list shows it as the newest."""
        a, b = self.a, self.b
        self.open_both("/menu", "Margherita")
        self.click(a, "button.entry", "Quattro Formaggi")
        wait_until("B's order list shows A's order as the newest", lambda: "Quattro Formaggi" in b.find_element(By.CSS_SELECTOR, "tr.newest").text, 10)
        print("ok - /menu: A taps Quattro Formaggi; B's order list shows it, marked newest")
        self.shot(b, "web-menu.png")

    def deep_links(self):
        """A drill-down has an address, Back returns, and a reload keeps the place."""
        a, base = self.a, self.base
        a.get(base + "/catalog/item-1/item-1.2")
        wait_until("a deep link opens a catalog leaf", lambda: "Image.jpg" in self.view(a), 10)
        a.get(base + "/catalog")
        wait_until("the catalog shows Item 2", lambda: "Item 2" in self.view(a), 10)
        self.click(a, "a.drill", "Item 2")
        wait_until("a drill-down moves the address", lambda: a.current_url.endswith("/catalog/item-2"), 10)
        a.back()
        wait_until("Back returns to the catalog's top", lambda: a.current_url.endswith("/catalog") and "Item 1" in self.view(a), 10)
        a.forward()
        a.refresh()
        wait_until("a reload keeps the drill-down", lambda: a.current_url.endswith("/catalog/item-2") and "item-2" in a.find_element(By.CSS_SELECTOR, ".crumbs").text, 10)
        print("ok - deep links: /catalog/item-1/item-1.2 opens its leaf; a drill moves the address, Back and reload keep the place")
