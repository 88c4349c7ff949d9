"""Opens each URL given in headless Chromium (Debian's chromium and chromium-driver, through python3-selenium) and
prints the text of its #result element once the page has replaced "pending", one line per URL, in order.

Used by Tests/SessionHubTests/BrowserCORSTests.swift; one browser serves every URL, so the run takes seconds."""
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

options = Options()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    for url in sys.argv[1:]:
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "result").text != "pending")
        print(driver.find_element(By.ID, "result").text, flush=True)
finally:
    driver.quit()
