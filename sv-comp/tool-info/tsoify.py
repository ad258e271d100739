# BenchExec tool-info module for tsoify (https://github.com/sosy-lab/benchexec,
# class BaseTool2). tsoify checks C/pthreads programs under sequential
# consistency, x86-TSO and PSO; the executable BenchExec runs is `verify`.
#
# Use: put this file where BenchExec finds tool-info modules, e.g. copy it
# into the installed benchexec/tools/ directory and write tool="tsoify" in the
# benchmark definition, or keep it here and run BenchExec with
# PYTHONPATH=<repo>/sv-comp and tool="tool-info.tsoify" (see sv-comp/README.md).
#
# SPDX-License-Identifier: MIT

import os
import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException


class Tool(benchexec.tools.template.BaseTool2):
    """
    tsoify's `verify`: builds the C program with clang-19, then explores every
    execution under the chosen memory model (--model sc|tso|pso, default tso).
    With --svcomp it checks unreach-call or no-data-race (the property file
    given), prints `Result: TRUE`, `Result: FALSE(unreach-call)`,
    `Result: FALSE(no-data-race)` or `Result: UNKNOWN` as its last line and
    writes witness.yml (format 2.0) on FALSE. Exit codes: 0 TRUE, 1 FALSE,
    2 UNKNOWN, 3 input error.
    """

    def name(self):
        return "tsoify"

    def executable(self, tool_locator):
        # a source checkout (target/release/verify) or a directory holding verify
        if tool_locator.tool_directory:
            here = tool_locator._replace(use_path=False, use_current=False)
            for subdir in ("target/release", ""):
                try:
                    return here.find_executable("verify", subdir=subdir)
                except ToolNotFoundException:
                    pass
        return tool_locator.find_executable("verify", subdir="target/release")

    def program_files(self, executable):
        # verify builds the C program by running the tsoify beside it
        return [executable, os.path.join(os.path.dirname(executable), "tsoify")]

    def version(self, executable):
        # `verify --version` prints "verify 0.1.0"
        text = self._version_from_tool(executable)
        return text[len("verify") :].strip() if text.startswith("verify") else text

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "--svcomp"]
        if task.property_file and "--property" not in options:
            cmd += ["--property", task.property_file]
        task_options = task.options if isinstance(task.options, dict) else {}
        data_model = task_options.get("data_model")
        if data_model and "--data-model" not in options:
            if data_model not in ("ILP32", "LP64"):
                raise UnsupportedFeatureException(
                    f"Unsupported data_model '{data_model}' of task '{task}'"
                )
            cmd += ["--data-model", data_model]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        if run.exit_code.value == 3:
            return result.RESULT_ERROR
        for line in reversed(run.output):
            line = line.strip()
            if not line.startswith("Result:"):
                continue
            word = line[len("Result:") :].strip()
            if word == "TRUE":
                return result.RESULT_TRUE_PROP
            if word == "FALSE(unreach-call)":
                return result.RESULT_FALSE_REACH
            if word == "FALSE(no-data-race)":
                return result.RESULT_FALSE_DATARACE
            if word.startswith("FALSE"):
                return result.RESULT_FALSE_PROP
            if word == "UNKNOWN":
                return result.RESULT_UNKNOWN
            return result.RESULT_ERROR
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # identifier "executions": the number of executions explored
        if identifier == "executions":
            for line in output:
                m = re.match(r"statistics: (\d+) executions", line.strip())
                if m:
                    return m.group(1)
        return None
