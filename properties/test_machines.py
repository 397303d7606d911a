"""The state machines (properties/machines.py) as tests: any sequence of steps, invariants after
every step."""

from properties.machines import HostMachine, SearchParamsMachine, URLSetterMachine

TestURLSetters = URLSetterMachine.TestCase
TestSearchParams = SearchParamsMachine.TestCase
TestHosts = HostMachine.TestCase
